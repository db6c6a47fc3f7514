using IfiDashboard.Compliance.Summary;
using IfiDashboard.Compliance.Zeroing;

namespace IfiDashboard.Server.Api.Compliance;

// Bodies of GET /api/v1/compliance/summary. The API has its own records rather than the engine's, so the engine can
// change shape without breaking integrations. Durations are seconds, sizes bytes.

/// <summary>The fleet at <see cref="ComputedAt"/>: statuses counted several ways, and time lost to zeroing.</summary>
public sealed record ComplianceSummary(
    DateTimeOffset ComputedAt,
    DateTimeOffset? LastPollAt,
    int PolicyVersion,
    int Instances,
    int Polled,
    StatusCountsResource Counts,
    DesiredStateCounts ByDesiredState,
    IReadOnlyList<StatusGroupResource> ByEnvironment,
    IReadOnlyList<StatusGroupResource> ByTag,
    IReadOnlyList<StatusGroupResource> ByMajorVersion,
    IReadOnlyList<StatusGroupResource> ByOwner,
    TimeLostWindows TimeLost);

/// <summary>
/// Instances per status. <c>stale</c> overlaps the others (it qualifies a status). <c>compliancePercent</c> is
/// Compliant / (total − NotApplicable), null when nothing is in scope; Waived and Unknown count against it.
/// </summary>
public sealed record StatusCountsResource(int Total, int Compliant, int NonCompliant, int Waived, int Unknown,
    int NotApplicable, int Stale, int InScope, double? CompliancePercent)
{
    public static StatusCountsResource From(StatusCounts c) =>
        new(c.Total, c.Compliant, c.NonCompliant, c.Waived, c.Unknown, c.NotApplicable, c.Stale, c.InScope, c.CompliancePercent);
}

/// <summary>A group (an environment, tag, release or owner) and its counts.</summary>
public sealed record StatusGroupResource(string Key, StatusCountsResource Counts)
{
    public static StatusGroupResource From(StatusGroup g) => new(g.Key, StatusCountsResource.From(g.Counts));
}

/// <summary>Instances per desired state, as the policy (or the platform) decides it.</summary>
public sealed record DesiredStateCounts(int Required, int Forbidden, int NotApplicable);

public sealed record TimeLostWindows(TimeLostWindow Last7Days, TimeLostWindow Last30Days, TimeLostWindow Last90Days);

/// <summary>Growth events that started in [from, to) and how their time was spent.</summary>
public sealed record TimeLostWindow(DateTimeOffset From, DateTimeOffset To, ZeroingTotalsResource Totals)
{
    public static TimeLostWindow Of(ZeroingReport report) => new(report.From, report.To, ZeroingTotalsResource.From(report.Fleet));
}

/// <summary>
/// Growth time split by what it was spent on. <c>timeLostSeconds</c> is the only figure IFI would have avoided
/// (data-file growth zeroed without IFI); log and TDE zeroing are shown apart because IFI cannot save them.
/// </summary>
public sealed record ZeroingTotalsResource(
    int GrowthEvents,
    double GrowthSeconds,
    int TimeLostEvents,
    double TimeLostSeconds,
    double TimeLostAssumedSeconds,
    long BytesZeroedWithoutIfi,
    double LogZeroingSeconds,
    double TdeZeroingSeconds,
    int LogGrowthsNotZeroed,
    double IfiUnknownSeconds)
{
    public static ZeroingTotalsResource From(ZeroingTotals t) => new(
        t.GrowthEvents, Seconds(t.GrowthMicroseconds), t.TimeLostEvents, Seconds(t.TimeLostMicroseconds),
        Seconds(t.TimeLostAssumedMicroseconds), t.BytesZeroedWithoutIfi, Seconds(t.LogZeroingMicroseconds),
        Seconds(t.TdeZeroingMicroseconds), t.LogGrowthsNotZeroed, Seconds(t.IfiUnknownMicroseconds));

    public static double Seconds(long microseconds) => microseconds / 1_000_000.0;
}
