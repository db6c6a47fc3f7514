using System.Text.Json.Serialization;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Shared.Contracts;

namespace IfiDashboard.Client.Pages.Reports;

/// <summary>
/// What an auditor asks for, for one period and scope: the policy versions in force, the waivers that counted, each
/// instance's statuses with the evidence behind them, and every change with who made it. Built only from what the
/// store keeps for good (policy versions, waivers, the daily statuses, polls, the audit log), in a fixed order and
/// without the time of its making, so each section of a closed period's report is byte-identical however often it is
/// made; only the business case follows today's policy and inventory (docs/reports.md), and the manifest shows that.
/// </summary>
public sealed record EvidenceReport(
    EvidencePeriod Period,
    IReadOnlyList<EvidencePolicyVersion> PolicyVersions,
    IReadOnlyList<EvidenceWaiver> Waivers,
    IReadOnlyList<EvidenceInstance> Instances,
    IReadOnlyList<EvidenceChange> Changes,
    EvidenceBusinessCase BusinessCase,
    EvidenceManifest Manifest);

/// <param name="From">Inclusive, UTC.</param>
/// <param name="To">Exclusive, UTC.</param>
/// <param name="IsClosed">False while the period reaches past the time the report was made: its figures may still change.</param>
public sealed record EvidencePeriod(DateTimeOffset From, DateTimeOffset To, string? Environment, string? Tag, bool IsClosed);

/// <param name="InForceFrom">When it took effect, or the period's start for the version already in force then.</param>
/// <param name="Rules">The rules as saved (JSON), for machines.</param>
/// <param name="Sentences">The same rules, one sentence each in the order they are tried, for people.</param>
public sealed record EvidencePolicyVersion(int Version, string Author, DateTimeOffset CreatedAt, DateTimeOffset InForceFrom, string Rules,
    IReadOnlyList<string> Sentences);

/// <param name="DisplayName">The registration's name, as <c>name</c> on an instance and <c>displayName</c> elsewhere in
/// /api/v1.</param>
/// <param name="NeedsApproval">Whether four-eyes approval (<c>Auth:WaiversNeedApproval</c>) was on when it was granted:
/// a waiver granted while it was off counted without a second person.</param>
public sealed record EvidenceWaiver(long Id, long InstanceId, string DisplayName, string Reason, string Author, bool NeedsApproval,
    string? ApprovedBy, DateTimeOffset GrantedAt, DateTimeOffset ExpiresAt, DateTimeOffset? RevokedAt, string? RevokedBy)
{
    /// <summary>The name <see cref="DisplayName"/> had before: in /api/v1 <c>instanceName</c> is a SQL Server named
    /// instance (docs/api.md, "One meaning per name").</summary>
    [DeprecatedAlias("displayName")]
    public string InstanceName => DisplayName;
}

/// <param name="DaysByStatus">For each status, the UTC days of the period whose worst status it was.</param>
/// <param name="DaysByCoverage">For each coverage, the UTC days of the period it applies to: every day is counted once.</param>
/// <param name="Days">Each UTC day of the period: its coverage, why it was not monitored, its worst status and its polls.</param>
/// <param name="LastPoll">The last poll that finished inside the period, or null when none did.</param>
public sealed record EvidenceInstance(long Id, string Name, string? ExternalKey, string Environment, string? Owner,
    IReadOnlyDictionary<string, int> DaysByStatus, string? WorstStatus, IReadOnlyDictionary<string, int> DaysByCoverage,
    IReadOnlyList<EvidenceDay> Days, EvidencePoll? LastPoll);

/// <summary>One UTC day of one instance (docs/reports.md, "Coverage").</summary>
/// <param name="NotMonitoredBecause">Why, on a day that was not monitored; null otherwise.</param>
/// <param name="Status">The day's worst status, or null when no assessment of the day was stored.</param>
/// <param name="Polls">The polls of the instance that finished that day, whatever their outcome.</param>
public sealed record EvidenceDay(DateOnly Day, DayCoverage Coverage, NotMonitoredReason? NotMonitoredBecause, string? Status, int Polls);

[JsonConverter(typeof(JsonStringEnumConverter<DayCoverage>))]
public enum DayCoverage
{
    /// <summary>At no moment of the day was the instance's latest poll older than the staleness allowance.</summary>
    Monitored,
    /// <summary>Polled that day, but with at least one stretch longer than the allowance without a poll.</summary>
    MonitoredWithGaps,
    /// <summary>No poll that day, and the allowance ran out.</summary>
    NotMonitored,
}

[JsonConverter(typeof(JsonStringEnumConverter<NotMonitoredReason>))]
public enum NotMonitoredReason
{
    /// <summary>The day ended before the instance was registered.</summary>
    BeforeRegistration,
    /// <summary>The instance was retired before the day began.</summary>
    AfterRetirement,
    /// <summary>The server stored an assessment that day, but no collector stored a poll of this instance.</summary>
    CollectorSilent,
    /// <summary>Nothing was stored that day for any instance: the store or the server was down.</summary>
    StoreOutage,
    /// <summary>The day had not begun when the report was made (an open period).</summary>
    NotYet,
}

/// <param name="IfiEvidence">What decided the IFI state: the services DMV, the start-up line of the error log, trace flag 1806 overriding them, or none.</param>
public sealed record EvidencePoll(DateTimeOffset FinishedAt, string Collector, string Outcome, string IfiState, string IfiEvidence);

/// <param name="Before">The state before, as the audit log holds it (JSON), for machines.</param>
/// <param name="Sentence">The change in words, for people: who did what to which target, and what it changed.</param>
public sealed record EvidenceChange(long Id, DateTimeOffset OccurredAt, string Actor, string? RemoteAddress, string Action,
    string? Target, string? Before, string? After, string Sentence);

/// <summary>
/// Time lost to zeroing in the period and what meeting the policy would have saved (<see cref="BusinessCase"/>), for the
/// instances in scope that are still registered, with the policy in force when the report is made.
/// </summary>
/// <param name="PerMonth">The factor that turns the period's seconds into a month of 30 days.</param>
public sealed record EvidenceBusinessCase(string Method, double PerMonth, EvidenceBusinessLine Fleet,
    IReadOnlyList<EvidenceBusinessLine> ByEnvironment, IReadOnlyList<EvidenceBusinessLine> ByOwner)
{
    public static EvidenceBusinessCase From(BusinessCase @case)
    {
        EvidenceBusinessLine Line(BusinessCaseLine l) => new(l.Key, l.Instances, l.Lost.TotalSeconds, l.SavingIfPolicyMet.TotalSeconds,
            l.IfiUnknown.TotalSeconds, Math.Round(l.Lost.TotalHours * @case.PerMonth, 3), Math.Round(l.SavingIfPolicyMet.TotalHours * @case.PerMonth, 3));
        return new EvidenceBusinessCase(BusinessCase.Method, @case.PerMonth, Line(@case.Fleet),
            @case.ByEnvironment.Select(Line).ToList(), @case.ByOwner.Select(Line).ToList());
    }
}

/// <param name="IfiUnknownSeconds">Growth while the IFI state was unknown: in neither figure, which are then lower bounds.</param>
public sealed record EvidenceBusinessLine(string Key, int Instances, double LostSeconds, double SavingIfPolicyMetSeconds,
    double IfiUnknownSeconds, double LostHoursPerMonth, double SavingHoursPerMonth);

/// <summary>
/// SHA-256 (lower-case hex) of each section's JSON, and of the whole report's sections together, signed by the server.
/// </summary>
/// <param name="SigningKey">SHA-256 (lower-case hex) of the signing key's public part (its DER SubjectPublicKeyInfo).</param>
/// <param name="Signature">Base64 of the RSA signature (PKCS#1 v1.5, SHA-256) of <see cref="Text"/>'s UTF-8 bytes.</param>
public sealed record EvidenceManifest(IReadOnlyDictionary<string, string> Sections, string Report, string SigningKey, string Signature)
{
    /// <summary>What is signed: a line "name hash" per section in the order given, then "report hash", each ending in a line feed.</summary>
    public static string TextOf(IReadOnlyDictionary<string, string> sections, string report) =>
        string.Concat(sections.Select(s => $"{s.Key} {s.Value}\n")) + $"report {report}\n";

    /// <summary>The manifest file an auditor verifies the signature against (docs/reports.md).</summary>
    public string Text() => TextOf(Sections, Report);
}

/// <summary>Makes the report of a period and scope; the server implements it over the store (the API, the page and the monthly mail alike).</summary>
public interface IEvidenceReportSource
{
    /// <summary>The longest period one report covers, as the API's time windows.</summary>
    const int MaxDays = 366;

    Task<EvidenceReport> BuildAsync(DateTimeOffset from, DateTimeOffset to, string? environment, string? tag, CancellationToken ct);
}
