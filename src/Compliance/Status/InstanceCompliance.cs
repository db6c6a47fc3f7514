using IfiDashboard.Compliance.Policy;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Status;

/// <summary>The verdict on one instance, with everything a page or an alert needs to explain it.</summary>
public sealed record InstanceCompliance
{
    public required long InstanceId { get; init; }
    public required ComplianceStatus Status { get; init; }
    public required PolicyDecision Policy { get; init; }
    public required int PolicyVersion { get; init; }
    public required IfiState Observed { get; init; }

    /// <summary>Set when <see cref="Status"/> is Unknown.</summary>
    public string? UnknownReason { get; init; }

    /// <summary>The active waiver, whether or not it changed the status (it only changes NonCompliant).</summary>
    public Waiver? Waiver { get; init; }

    /// <summary>The last good poll is older than three poll intervals: the status may no longer be true.</summary>
    public bool IsStale { get; init; }

    /// <summary>One line a person can read: "IFI is off but policy 'prod' requires it".</summary>
    public required string Explanation { get; init; }

    /// <summary>Caveats that do not change the status (Linux allocation, a waiver that is not needed, staleness).</summary>
    public IReadOnlyList<string> Notes { get; init; } = [];

    /// <summary>Compliant is the only status that counts as compliant; Waived and Unknown never do.</summary>
    public bool CountsAsCompliant => Status == ComplianceStatus.Compliant;
}
