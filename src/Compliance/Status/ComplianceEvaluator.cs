using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Status;

public static class ComplianceEvaluator
{
    /// <summary>Source: docs/sqlserver-reference.md section 1b (Microsoft's SQL Server engineering blog).</summary>
    public const string LinuxAllocationNote =
        "Linux: SQL Server grows files with fallocate, and space a file has not written yet reads back as zeros, so " +
        "instant file initialization there never shows deleted disk contents. No Windows right applies; trace flag " +
        "1805 or 1806 makes the engine zero data files anyway. The status follows what the engine reports " +
        "(sys.dm_server_services, trace flags).";

    /// <summary>A Forbidden rule exists to keep deleted disk contents out of new data files, which Linux never shows.</summary>
    public const string LinuxForbiddenNote =
        "Policy forbids IFI here, but on Linux IFI cannot expose deleted disk contents (space not yet written reads as " +
        "zeros), the risk such a rule guards against: zeroing costs time and protects nothing. Review whether the rule " +
        "should apply to Linux hosts; to keep it, trace flag 1806 (mssql-conf traceflag 1806 on) makes the engine zero.";

    public static InstanceCompliance Evaluate(InstanceFacts instance, PolicyDocument policy, DateTimeOffset now)
    {
        var decision = PolicyEvaluator.Decide(policy, instance);
        var waiver = PolicyEvaluator.ActiveWaiver(policy, instance.InstanceId, now);
        var observed = instance.Ifi.State;
        // A rule that could not be evaluated and would decide otherwise leaves the desired state open: nobody can say
        // whether the instance complies, whatever its IFI.
        var status = decision.Source == PolicySource.Undecided
            ? ComplianceStatus.Unknown
            : Judge(decision.Desired, observed, waiver);

        return new InstanceCompliance
        {
            InstanceId = instance.InstanceId,
            Status = status,
            Policy = decision,
            PolicyVersion = policy.Version,
            Observed = observed,
            UnknownReason = status != ComplianceStatus.Unknown ? null
                : observed == IfiState.Unknown ? instance.Ifi.UnknownReason ?? "unknown"
                : StatusExplanation.Undecided(decision),
            Waiver = waiver,
            IsStale = status != ComplianceStatus.NotApplicable
                && Staleness.IsStale(instance.LastGoodPollAt, instance.PollInterval, now),
            Explanation = StatusExplanation.Explain(status, decision, instance, waiver),
            Notes = Notes(status, decision, instance, waiver, now),
        };
    }

    /// <summary>
    /// The first moment after <paramref name="now"/> at which <see cref="Evaluate"/> may judge the same facts under the
    /// same policy otherwise: one of the instance's waivers starting or ending, or its last good poll going stale.
    /// DateTimeOffset.MaxValue when nothing but new facts or a new policy can change the verdict.
    /// </summary>
    public static DateTimeOffset ChangesAt(InstanceFacts instance, PolicyDocument policy, DateTimeOffset now)
    {
        var next = DateTimeOffset.MaxValue;
        foreach (var waiver in policy.Waivers)
            if (waiver.InstanceId == instance.InstanceId && waiver.NextChangeAfter(now) is var change && change < next)
                next = change;
        if (instance.LastGoodPollAt is { } lastGood && Staleness.StaleFrom(lastGood, instance.PollInterval) is var stale
            && stale > now && stale < next)
            next = stale;
        return next;
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

    static List<string> Notes(ComplianceStatus status, PolicyDecision decision, InstanceFacts instance, Waiver? waiver,
        DateTimeOffset now)
    {
        var notes = new List<string>();
        if (instance.Platform == HostPlatform.Linux && status != ComplianceStatus.NotApplicable)
            notes.Add(LinuxAllocationNote);
        if (instance.Platform == HostPlatform.Linux && status != ComplianceStatus.NotApplicable
            && decision.Desired == DesiredState.Forbidden)
            notes.Add(LinuxForbiddenNote);
        // Undecided with IFI known is the explanation itself; with IFI unknown too, the explanation names IFI's reason.
        foreach (var rule in decision.Unevaluated)
            if (decision.Source != PolicySource.Undecided)
                notes.Add($"Not evaluated: {rule.Sentence}. It would decide the same ({rule.Desired}), so the status stands.");
            else if (instance.Ifi.State == IfiState.Unknown)
                notes.Add($"Policy undecided as well: {rule.Sentence}.");
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
