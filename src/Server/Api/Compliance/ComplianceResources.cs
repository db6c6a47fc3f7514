using IfiDashboard.Compliance;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Remediation;
using IfiDashboard.Compliance.Restore;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Summary;
using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Server.Api.Compliance;

/// <summary>Maps the engine's assessment onto the API's records.</summary>
internal static class ComplianceResources
{
    public static ComplianceRow Row(InstanceAssessment a, string? externalKey, DateTimeOffset assessedAt)
    {
        var c = a.Compliance;
        return new ComplianceRow(
            a.Registration.Id, externalKey, a.Registration.Name, a.Registration.Environment, a.Registration.Owner,
            a.Registration.Tags, a.Facts.MajorVersion, FleetSummaries.VersionKey(a.Facts),
            c.Status.ToString(), c.IsStale, c.Explanation, c.Policy.Desired.ToString(), c.Policy.RuleName,
            c.Observed.ToString(), a.Facts.Ifi.UnknownReason, c.Waiver?.ExpiresAt, a.Account.Kind.ToString(),
            a.Account.IsOverPrivileged, a.Rates.Instance.BytesPerSecond, a.Rates.Instance.Method.ToString(),
            Seconds(a.TimeLost, 7), Seconds(a.TimeLost, 30), Seconds(a.TimeLost, 90),
            a.TimeLost.Certainty(7).ToString(), a.TimeLost.Certainty(30).ToString(), a.TimeLost.Certainty(90).ToString(),
            a.TimeLost.LogZeroingLast30Days.TotalSeconds, a.TimeLost.EvidenceSince, a.Restore.Slowest?.ExtraSeconds ?? 0, a.Restore.AllDatabasesExtraSeconds,
            a.State.LastGoodPollAt, c.PolicyVersion, assessedAt);
    }

    public static InstanceComplianceResource Detail(InstanceAssessment a, string? externalKey,
        IReadOnlyDictionary<long, string> keys, DateTimeOffset assessedAt)
    {
        var c = a.Compliance;
        var rate = a.Rates.Instance;
        return new InstanceComplianceResource(
            a.Registration.Id, externalKey, a.Registration.Name, a.Registration.Environment, a.Registration.Owner,
            a.Registration.Tags, a.Facts.MajorVersion, FleetSummaries.VersionKey(a.Facts),
            Platform(a), c.Status.ToString(), c.IsStale, c.Explanation, Reasons(a), c.Notes,
            new DesiredStateResource(c.Policy.Desired.ToString(), c.Policy.Source.ToString(), c.Policy.RuleName, c.PolicyVersion),
            c.Waiver is { } w ? new WaiverResource(w.Author, w.Reason, w.GrantedAt, w.ExpiresAt, w.ApprovedBy, w.ApprovedAt) : null,
            new ObservedIfiResource(c.Observed.ToString(), a.Facts.Ifi.UnknownReason, a.State.EngineServiceAccount,
                a.State.LastPollAt, a.State.LastGoodPollAt, a.State.LastOutcome?.ToString()),
            new AccountResource(a.Account.Account, a.Account.Kind.ToString(), a.Account.IsOverPrivileged, a.Account.Explanation),
            Remediation(a.Remediation),
            new ZeroingRateResource(rate.BytesPerSecond, rate.Method.ToString(), rate.SampleCount, rate.IsAssumed, rate.Describe(),
                a.Rates.Volumes.ToDictionary(v => v.Key, v => v.Value.BytesPerSecond)),
            new TimeLostResource(Seconds(a.TimeLost, 7), Seconds(a.TimeLost, 30), Seconds(a.TimeLost, 90),
                a.TimeLost.Certainty(7).ToString(), a.TimeLost.Certainty(30).ToString(), a.TimeLost.Certainty(90).ToString(),
                a.TimeLost.LogZeroingLast30Days.TotalSeconds, a.TimeLost.EvidenceSince),
            a.Restore.Databases.Select(d => Restore(d, keys)).ToList(),
            a.Restore.GrowthStalls.Select(s => Stall(s, keys)).ToList(),
            assessedAt);
    }

    static RemediationResource Remediation(RemediationPlan plan) => new(plan.Kind.ToString(), plan.Title, plan.Steps);

    /// <summary>A window's seconds, or null where the pages say "unknown" (<see cref="TimeLost.CertaintyOf"/>).</summary>
    static double? Seconds(TimeLost lost, int days) =>
        lost.Certainty(days) == TimeLostCertainty.Unknown ? null
        : (days switch { 7 => lost.Last7Days, 30 => lost.Last30Days, _ => lost.Last90Days }).TotalSeconds;

    /// <summary>
    /// Azure for the Azure products (an engine version such as 12.0.2000.8 is no release, and no Windows host is
    /// theirs to manage), else the host platform the instance reported. The release beside it is the overview's
    /// version group (<see cref="FleetSummaries.VersionKey"/>), so the API names what the pages name.
    /// </summary>
    static string Platform(InstanceAssessment a) => a.Facts.IsAzurePaas ? "Azure" : a.Facts.Platform.ToString();

    /// <summary>The facts behind the status, one sentence each: desired state, what was seen, waiver, staleness.</summary>
    static List<string> Reasons(InstanceAssessment a)
    {
        var c = a.Compliance;
        var reasons = new List<string>
        {
            c.Policy.Desired switch
            {
                IfiDashboard.Compliance.Policy.DesiredState.Required => $"IFI is required by {c.Policy.Origin} (policy version {c.PolicyVersion}).",
                IfiDashboard.Compliance.Policy.DesiredState.Forbidden => $"IFI is forbidden by {c.Policy.Origin} (policy version {c.PolicyVersion}).",
                _ => $"IFI is not applicable under {c.Policy.Origin}.",
            },
            c.Observed switch
            {
                IfiState.Enabled => "The engine service reports IFI on (instant_file_initialization_enabled = Y).",
                IfiState.Disabled => "The engine service reports IFI off (instant_file_initialization_enabled = N).",
                _ => $"The IFI state is unknown: {a.Facts.Ifi.UnknownReason ?? "no reason given"}.",
            },
        };
        if (c.Waiver is { } w)
            reasons.Add($"Waiver by {w.Author}{(w.ApprovedBy is { } approver ? $", approved by {approver}," : "")} from {ComplianceFormat.Moment(w.GrantedAt)} until {ComplianceFormat.Moment(w.ExpiresAt)}: {w.Reason}");
        if (c.IsStale && a.State.LastGoodPollAt is { } lastGood)
            reasons.Add($"The last good poll, at {ComplianceFormat.Moment(lastGood)}, is more than {Staleness.IntervalsBeforeStale} poll intervals old.");
        return reasons;
    }

    public static DatabaseRestoreRiskResource Restore(DatabaseRestoreRisk d, IReadOnlyDictionary<long, string> keys) => new(
        d.InstanceId, d.InstanceName, keys.GetValueOrDefault(d.InstanceId), d.DatabaseId, d.DatabaseName, d.DataBytes,
        d.ZeroedDataBytes, d.ExtraSeconds, d.LogBytes, d.LogZeroingSeconds, d.RateAssumed, d.IfiUnknown, d.TdeEncrypted);

    public static GrowthStallResource Stall(FileGrowthStall s, IReadOnlyDictionary<long, string> keys) => new(
        s.InstanceId, s.InstanceName, keys.GetValueOrDefault(s.InstanceId), s.DatabaseId, s.DatabaseName, s.LogicalName,
        s.Ifi.Ifi.ToString(), s.IncrementBytes, s.StallSeconds, s.RateAssumed);

    public static GrowthEventResource GrowthEvent(GrowthEventAssessment g) => new(
        g.Event.StartTime, g.Event.EventClass, g.Event.IsDataGrowth ? "data" : "log", g.Event.DatabaseId,
        g.Event.DatabaseName, g.Event.LogicalFileName, g.Event.DurationMicroseconds, g.Event.GrowthPages,
        g.Event.GrowthBytes, g.Zeroing.ToString(), ZeroingTotalsResource.Seconds(g.ZeroingMicroseconds),
        ZeroingTotalsResource.Seconds(g.TimeLostMicroseconds), g.InstanceIfi.State.ToString(),
        g.InstanceIfi.Evidence.ToString(), g.InstanceIfi.IsAssumed, g.FileIfi.Ifi.ToString(), g.FileIfi.Reason.ToString(),
        g.FileIfi.Explanation);

    /// <summary>A status by name, ignoring case. Names only: Enum.TryParse would also take "1" or "Compliant, Waived".</summary>
    public static bool IsStatus(string text, out ComplianceStatus status)
    {
        foreach (var candidate in Enum.GetValues<ComplianceStatus>())
        {
            if (string.Equals(candidate.ToString(), text, StringComparison.OrdinalIgnoreCase))
            {
                status = candidate;
                return true;
            }
        }
        status = default;
        return false;
    }
}
