using IfiDashboard.Shared.Compliance.Facts;
using IfiDashboard.Shared.Compliance.Policy;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Shared.Compliance.Status;

public static class ComplianceEvaluator
{
    public const string LinuxAllocationNote =
        "Linux: SQL Server allocates data files with fallocate, so data-file IFI is effectively on even when the " +
        "DMV reports N (community source, unconfirmed). The status follows the DMV, which is the live state.";

    public static InstanceCompliance Evaluate(InstanceFacts instance, PolicyDocument policy, DateTimeOffset now)
    {
        var decision = PolicyEvaluator.Decide(policy, instance);
        var waiver = PolicyEvaluator.ActiveWaiver(policy, instance.InstanceId, now);
        var observed = instance.Ifi.State;
        var status = Judge(decision.Desired, observed, waiver);

        return new InstanceCompliance
        {
            InstanceId = instance.InstanceId,
            InstanceName = instance.Name,
            Status = status,
            Policy = decision,
            PolicyVersion = policy.Version,
            Observed = observed,
            UnknownReason = status == ComplianceStatus.Unknown ? instance.Ifi.UnknownReason ?? "unknown" : null,
            Waiver = waiver,
            IsStale = status != ComplianceStatus.NotApplicable
                && Staleness.IsStale(instance.LastGoodPollAt, instance.PollInterval, now),
            Explanation = StatusExplanation.Explain(status, decision, instance, waiver),
            Notes = Notes(status, instance, waiver, now),
        };
    }

    /// <summary>The status table of docs/compliance.md, and nothing else.</summary>
    public static ComplianceStatus Judge(DesiredState desired, IfiState observed, Waiver? activeWaiver)
    {
        if (desired == DesiredState.NotApplicable)
            return ComplianceStatus.NotApplicable;

        // Unknown stays Unknown even under a waiver: a waiver accepts a known deviation, it cannot vouch for a state
        // nobody has seen, and turning Unknown into Waived would hide an instance we have lost sight of.
        if (observed == IfiState.Unknown)
            return ComplianceStatus.Unknown;

        var matches = (desired, observed) is (DesiredState.Required, IfiState.Enabled)
            or (DesiredState.Forbidden, IfiState.Disabled);
        if (matches)
            return ComplianceStatus.Compliant;

        return activeWaiver is null ? ComplianceStatus.NonCompliant : ComplianceStatus.Waived;
    }

    static List<string> Notes(ComplianceStatus status, InstanceFacts instance, Waiver? waiver, DateTimeOffset now)
    {
        var notes = new List<string>();
        if (instance.Platform == HostPlatform.Linux && status != ComplianceStatus.NotApplicable)
            notes.Add(LinuxAllocationNote);
        if (waiver is not null && status == ComplianceStatus.Compliant)
            notes.Add($"A waiver by {waiver.Author} is active but not needed: the instance complies.");
        if (waiver is not null && status == ComplianceStatus.Unknown)
            notes.Add($"A waiver by {waiver.Author} is active, but a waiver cannot cover a state nobody has seen.");
        if (status != ComplianceStatus.NotApplicable && instance.LastGoodPollAt is { } lastGood
            && Staleness.IsStale(lastGood, instance.PollInterval, now))
            notes.Add($"Last good poll at {ComplianceFormat.Moment(lastGood)}, more than " +
                      $"{Staleness.IntervalsBeforeStale} poll intervals ago: this status may be out of date.");
        return notes;
    }
}
