using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Summary;
using IfiDashboard.Compliance.Zeroing;

namespace IfiDashboard.Compliance.Assessment;

/// <summary>
/// The business case for IFI over one window: time lost to zeroing and what meeting the policy would have saved, for
/// the fleet, per environment and per owner. Built from the window's existing time-lost figures (a
/// <see cref="ZeroingReport"/>: the assessment's 30 days on the overview, the report's period in the evidence report),
/// never computed another way.
/// </summary>
public sealed record BusinessCase(
    DateTimeOffset From,
    DateTimeOffset To,
    BusinessCaseLine Fleet,
    IReadOnlyList<BusinessCaseLine> ByEnvironment,
    IReadOnlyList<BusinessCaseLine> ByOwner)
{
    public const string Method =
        "Time lost: the duration of each data-file autogrowth (default trace) made while the instance had no effective " +
        "IFI, as on the instance pages. Saving if policy were met: the part of it on instances whose policy requires " +
        "IFI (where the policy forbids IFI, zeroing is that policy's cost, not a loss; log and TDE zeroing cannot be " +
        "saved). Per month: the window's figures scaled to 30 days. Growth while the IFI state was unknown counts as " +
        "neither, and neither does an instance whose default trace was never read while IFI was not on, so a figure " +
        "with either is a lower bound (\"at least\").";

    /// <summary>What the window's figures are multiplied by to give a month of 30 days.</summary>
    public double PerMonth => TimeSpan.FromDays(30) / (To - From);

    public static BusinessCase Build(IEnumerable<InstanceAssessment> instances, ZeroingReport window)
    {
        var totals = window.Instances.ToDictionary(i => i.InstanceId, i => i.Totals);
        var rows = instances
            .Select(i => (Instance: i, Totals: totals.GetValueOrDefault(i.Registration.Id) ?? new ZeroingTotals()))
            .ToList();
        IReadOnlyList<BusinessCaseLine> By(Func<InstanceAssessment, string> key) => rows
            .GroupBy(r => key(r.Instance), StringComparer.OrdinalIgnoreCase)
            .Select(g => Line(g.Key, g))
            .OrderByDescending(l => l.Lost).ThenBy(l => l.Key, StringComparer.OrdinalIgnoreCase)
            .ToList();
        return new BusinessCase(window.From, window.To, Line("fleet", rows), By(i => i.Registration.Environment),
            By(i => string.IsNullOrWhiteSpace(i.Registration.Owner) ? FleetSummaries.NoOwner : i.Registration.Owner));
    }

    static BusinessCaseLine Line(string key, IEnumerable<(InstanceAssessment Instance, ZeroingTotals Totals)> rows)
    {
        var list = rows.ToList();
        return new BusinessCaseLine(key, list.Count,
            Sum(list.Select(r => r.Totals.TimeLost)),
            Sum(list.Where(r => r.Instance.Compliance.Policy.Desired == DesiredState.Required).Select(r => r.Totals.TimeLost)),
            Sum(list.Select(r => r.Totals.IfiUnknown)),
            list.Count(r => r.Instance.TimeLost.WithoutEvidence));
    }

    static TimeSpan Sum(IEnumerable<TimeSpan> values) => values.Aggregate(TimeSpan.Zero, (a, b) => a + b);
}

/// <param name="Lost">Time lost to zeroing in the window.</param>
/// <param name="SavingIfPolicyMet">The part of <paramref name="Lost"/> on instances whose policy requires IFI.</param>
/// <param name="IfiUnknown">Growth in the window while the IFI state was unknown: in neither figure.</param>
/// <param name="WithoutEvidence">Instances with no growth evidence at all while IFI was not on (<see cref="TimeLost.WithoutEvidence"/>).</param>
public sealed record BusinessCaseLine(string Key, int Instances, TimeSpan Lost, TimeSpan SavingIfPolicyMet, TimeSpan IfiUnknown,
    int WithoutEvidence);
