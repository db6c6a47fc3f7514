using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Server.OpenApi;
using IfiDashboard.Shared.Contracts;

namespace IfiDashboard.Server.Api.Compliance;

// Bodies of /compliance/instances/{key}/growth-events, /compliance/time-lost and /compliance/restore-risk.
// displayName is the registration's name; instanceName, its deprecated alias until v2, since in /api/v1 an instance
// name is a SQL Server named instance (docs/api.md).

/// <summary>A page of an instance's growth events in [from, to), oldest first, with the window's totals.</summary>
public sealed record GrowthEventPage(
    long InstanceId,
    string? ExternalKey,
    string DisplayName,
    DateTimeOffset From,
    DateTimeOffset To,
    ZeroingTotalsResource Totals,
    IReadOnlyList<GrowthEventResource> Items,
    string? NextCursor)
{
    [DeprecatedAlias("displayName")]
    public string InstanceName => DisplayName;
}

/// <summary>
/// One autogrowth of the default trace and its verdict. <c>zeroing</c> is DataZeroedWithoutIfi (time lost),
/// DataZeroedByTde, DataNotZeroed, LogZeroed, LogNotZeroed, IfiUnknown or NotApplicable; <c>ifiAtEvent</c> is the
/// instance's flag when it happened, with its evidence (SameServiceRun, BracketingPolls, AssumedCurrent).
/// </summary>
public sealed record GrowthEventResource(
    DateTimeOffset StartTime,
    int EventClass,
    string FileKind,
    int DatabaseId,
    string DatabaseName,
    string FileName,
    long DurationMicroseconds,
    long GrowthPages,
    long GrowthBytes,
    [property: ApiValues(typeof(GrowthZeroing))] string Zeroing,
    double ZeroingSeconds,
    double TimeLostSeconds,
    string IfiAtEvent,
    string IfiEvidence,
    bool IfiAssumed,
    string FileIfi,
    string FileIfiReason,
    string Explanation);

/// <summary>Time lost in [from, to), fleet-wide and per group (instance, database or environment).</summary>
public sealed record TimeLostReport(
    DateTimeOffset From,
    DateTimeOffset To,
    string GroupBy,
    ZeroingTotalsResource Fleet,
    IReadOnlyList<TimeLostGroup> Groups);

/// <summary>
/// A group's totals; the instance fields are set when grouping by instance or database. <c>evidenceSince</c>: how far
/// back the growth evidence reaches (the instance's; for an environment, the latest of its instances', null when one
/// has none): a window starting before it covers less than it says.
/// </summary>
public sealed record TimeLostGroup(
    string Key,
    long? InstanceId,
    string? DisplayName,
    string? ExternalKey,
    int? DatabaseId,
    string? DatabaseName,
    ZeroingTotalsResource Totals,
    DateTimeOffset? EvidenceSince)
{
    [DeprecatedAlias("displayName")]
    public string? InstanceName => DisplayName;
}

/// <summary>The fleet's worst databases by extra restore time and worst data files by next-autogrowth stall.</summary>
public sealed record RestoreRiskReport(
    DateTimeOffset ComputedAt,
    int Top,
    double FleetRestoreExtraSeconds,
    IReadOnlyList<DatabaseRestoreRiskResource> Databases,
    IReadOnlyList<GrowthStallResource> GrowthStalls);

/// <summary>
/// Seconds a restore onto new files spends zeroing the database's data files without effective IFI
/// (<c>extraSeconds</c>), and its log files (always zeroed, not IFI's to save).
/// </summary>
public sealed record DatabaseRestoreRiskResource(
    long InstanceId,
    string DisplayName,
    string? ExternalKey,
    int DatabaseId,
    string DatabaseName,
    long DataBytes,
    long ZeroedDataBytes,
    double ExtraSeconds,
    long LogBytes,
    double LogZeroingSeconds,
    bool RateAssumed,
    bool IfiUnknown,
    bool TdeEncrypted)
{
    [DeprecatedAlias("displayName")]
    public string InstanceName => DisplayName;
}

/// <summary>How long a data file's next autogrowth holds up writes; null for a file that does not autogrow.</summary>
public sealed record GrowthStallResource(
    long InstanceId,
    string DisplayName,
    string? ExternalKey,
    int DatabaseId,
    string DatabaseName,
    string FileName,
    string FileIfi,
    long? IncrementBytes,
    double? StallSeconds,
    bool RateAssumed)
{
    [DeprecatedAlias("displayName")]
    public string InstanceName => DisplayName;
}
