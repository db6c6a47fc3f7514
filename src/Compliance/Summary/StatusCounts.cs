using IfiDashboard.Compliance.Status;

namespace IfiDashboard.Compliance.Summary;

/// <summary>Instances per status. <see cref="Stale"/> overlaps the others: it qualifies a status.</summary>
public sealed record StatusCounts(int Compliant, int NonCompliant, int Waived, int Unknown, int NotApplicable, int Stale)
{
    public static StatusCounts Zero { get; } = new(0, 0, 0, 0, 0, 0);

    public int Total => Compliant + NonCompliant + Waived + Unknown + NotApplicable;

    /// <summary>Instances the policy applies to: everything but NotApplicable.</summary>
    public int InScope => Total - NotApplicable;

    /// <summary>
    /// Compliant share of in-scope instances, 0 to 100. Waived and Unknown count against it: a waiver accepts a
    /// deviation, it does not remove it. Null when nothing is in scope.
    /// </summary>
    public double? CompliancePercent => InScope == 0 ? null : 100.0 * Compliant / InScope;

    public int Of(ComplianceStatus status) => status switch
    {
        ComplianceStatus.Compliant => Compliant,
        ComplianceStatus.NonCompliant => NonCompliant,
        ComplianceStatus.Waived => Waived,
        ComplianceStatus.Unknown => Unknown,
        _ => NotApplicable,
    };

    public StatusCounts Add(ComplianceStatus status, bool isStale)
    {
        var counted = status switch
        {
            ComplianceStatus.Compliant => this with { Compliant = Compliant + 1 },
            ComplianceStatus.NonCompliant => this with { NonCompliant = NonCompliant + 1 },
            ComplianceStatus.Waived => this with { Waived = Waived + 1 },
            ComplianceStatus.Unknown => this with { Unknown = Unknown + 1 },
            _ => this with { NotApplicable = NotApplicable + 1 },
        };
        return isStale ? counted with { Stale = counted.Stale + 1 } : counted;
    }
}
