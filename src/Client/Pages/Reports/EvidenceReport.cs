using IfiDashboard.Compliance.Assessment;

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
public sealed record EvidencePolicyVersion(int Version, string Author, DateTimeOffset CreatedAt, DateTimeOffset InForceFrom, string Rules);

public sealed record EvidenceWaiver(long Id, long InstanceId, string InstanceName, string Reason, string Author,
    string? ApprovedBy, DateTimeOffset GrantedAt, DateTimeOffset ExpiresAt, DateTimeOffset? RevokedAt, string? RevokedBy);

/// <param name="DaysByStatus">For each status, the UTC days of the period whose worst status it was.</param>
/// <param name="LastPoll">The last poll that finished inside the period, or null when none did.</param>
public sealed record EvidenceInstance(long Id, string Name, string? ExternalKey, string Environment, string? Owner,
    IReadOnlyDictionary<string, int> DaysByStatus, string? WorstStatus, EvidencePoll? LastPoll);

/// <param name="IfiEvidence">Where the IFI state came from: the services DMV, the start-up line of the error log, or none.</param>
public sealed record EvidencePoll(DateTimeOffset FinishedAt, string Collector, string Outcome, string IfiState, string IfiEvidence);

public sealed record EvidenceChange(long Id, DateTimeOffset OccurredAt, string Actor, string? RemoteAddress, string Action,
    string? Target, string? Before, string? After);

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

/// <summary>SHA-256 (lower-case hex) of each section's JSON, and of the whole report's sections together.</summary>
public sealed record EvidenceManifest(IReadOnlyDictionary<string, string> Sections, string Report);

/// <summary>Makes the report of a period and scope; the server implements it over the store (the API, the page and the monthly mail alike).</summary>
public interface IEvidenceReportSource
{
    /// <summary>The longest period one report covers, as the API's time windows.</summary>
    const int MaxDays = 366;

    Task<EvidenceReport> BuildAsync(DateTimeOffset from, DateTimeOffset to, string? environment, string? tag, CancellationToken ct);
}
