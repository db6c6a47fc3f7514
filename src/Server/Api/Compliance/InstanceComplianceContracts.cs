using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Server.OpenApi;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Server.Api.Compliance;

// Bodies of /api/v1/compliance/instances and /export. Enumerations are their names (Compliant, NonCompliant, Waived,
// Unknown, NotApplicable; Required, Forbidden; Enabled, Disabled, Unknown).

/// <summary>
/// One instance's compliance in a list or export row: flat, so that the CSV export has exactly these columns.
/// <c>externalKey</c> is null for instances not registered by a CMDB.
/// </summary>
public sealed record ComplianceRow(
    long Id,
    string? ExternalKey,
    string Name,
    string Environment,
    string? Owner,
    IReadOnlyList<string> Tags,
    int MajorVersion,
    string Release,
    [property: ApiValues(typeof(ComplianceStatus))] string Status,
    bool IsStale,
    string Explanation,
    [property: ApiValues(typeof(DesiredState))] string DesiredState,
    string? RuleName,
    [property: ApiValues(typeof(IfiState))] string ObservedIfi,
    string? UnknownReason,
    DateTimeOffset? WaiverExpiresAt,
    string AccountKind,
    bool AccountOverPrivileged,
    double ZeroingBytesPerSecond,
    string ZeroingRateMethod,
    double? TimeLost7DaysSeconds,
    double? TimeLost30DaysSeconds,
    double? TimeLost90DaysSeconds,
    [property: ApiValues(typeof(TimeLostCertainty))] string TimeLost7DaysCertainty,
    [property: ApiValues(typeof(TimeLostCertainty))] string TimeLost30DaysCertainty,
    [property: ApiValues(typeof(TimeLostCertainty))] string TimeLost90DaysCertainty,
    double LogZeroing30DaysSeconds,
    DateTimeOffset? EvidenceSince,
    double RestoreExtraSeconds,
    double RestoreExtraSecondsAllDatabases,
    DateTimeOffset? LastGoodPollAt,
    int PolicyVersion,
    DateTimeOffset AssessedAt);

public sealed record ComplianceRowPage(IReadOnlyList<ComplianceRow> Items, string? NextCursor);

/// <summary>Everything the engine says about one instance, with the reasons behind its status.</summary>
public sealed record InstanceComplianceResource(
    long Id,
    string? ExternalKey,
    string Name,
    string Environment,
    string? Owner,
    IReadOnlyList<string> Tags,
    int MajorVersion,
    string Release,
    string Platform,
    [property: ApiValues(typeof(ComplianceStatus))] string Status,
    bool IsStale,
    string Explanation,
    IReadOnlyList<string> Reasons,
    IReadOnlyList<string> Notes,
    DesiredStateResource Desired,
    WaiverResource? Waiver,
    ObservedIfiResource Observed,
    AccountResource Account,
    RemediationResource Remediation,
    ZeroingRateResource ZeroingRate,
    TimeLostResource TimeLost,
    IReadOnlyList<DatabaseRestoreRiskResource> RestoreRisk,
    IReadOnlyList<GrowthStallResource> GrowthStalls,
    DateTimeOffset AssessedAt);

/// <summary>
/// The desired state, where it came from (Default, Rule, Platform, or Undecided: a rule's host selector reads a fact no
/// poll has read and would decide otherwise, so the status is Unknown) and the rule's name when a rule decided.
/// </summary>
public sealed record DesiredStateResource([property: ApiValues(typeof(DesiredState))] string State,
    [property: ApiValues(typeof(PolicySource))] string Source, string? RuleName, int PolicyVersion);

/// <summary>The waiver in force; <c>approvedBy</c> names the second person when four-eyes approval was required.</summary>
public sealed record WaiverResource(string Author, string Reason, DateTimeOffset GrantedAt, DateTimeOffset ExpiresAt,
    string? ApprovedBy, DateTimeOffset? ApprovedAt);

/// <summary>What the latest polls saw; <c>unknownReason</c> says why when the IFI state is Unknown.</summary>
public sealed record ObservedIfiResource([property: ApiValues(typeof(IfiState))] string Ifi, string? UnknownReason, string? ServiceAccount,
    DateTimeOffset? LastPollAt, DateTimeOffset? LastGoodPollAt, string? LastOutcome);

public sealed record AccountResource(string Account, string Kind, bool IsOverPrivileged, string Explanation);

public sealed record RemediationResource(string Kind, string Title, IReadOnlyList<string> Steps);

/// <summary>
/// How fast the instance writes zeroes: the median, weighted by size, of its zeroed data-file growths of 256 MB or more, or the configured default
/// (method AssumedDefault) without samples. Per volume when its files sit on several.
/// </summary>
public sealed record ZeroingRateResource(double BytesPerSecond, string Method, int Samples, bool Assumed, string Description,
    IReadOnlyDictionary<string, double> VolumeBytesPerSecond);

/// <summary>
/// Seconds IFI would have saved in the last 7, 30 and 90 days; log zeroing (not avoidable) apart. Each window's
/// certainty is <c>Exact</c>, <c>AtLeast</c> (a lower bound: some growth's IFI state was unknown) or <c>Unknown</c>,
/// whose seconds are null, never 0 (growth of unknown IFI state only, or no default trace ever read while IFI was not
/// on). <c>evidenceSince</c> is how far back the growth evidence reaches (the oldest default-trace event any poll
/// saw): a window that starts before it covers only that much; null when no trace was read.
/// </summary>
public sealed record TimeLostResource(double? Last7DaysSeconds, double? Last30DaysSeconds, double? Last90DaysSeconds,
    [property: ApiValues(typeof(TimeLostCertainty))] string Last7DaysCertainty,
    [property: ApiValues(typeof(TimeLostCertainty))] string Last30DaysCertainty,
    [property: ApiValues(typeof(TimeLostCertainty))] string Last90DaysCertainty,
    double LogZeroingLast30DaysSeconds, DateTimeOffset? EvidenceSince);
