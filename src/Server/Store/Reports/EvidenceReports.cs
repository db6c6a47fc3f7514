using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using Dapper;
using IfiDashboard.Client.Pages.Reports;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Summary;
using IfiDashboard.Server.Api.Compliance;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Server.Store.Reports;

/// <summary>Builds the <see cref="EvidenceReport"/> of a period from the store, in one read transaction.</summary>
public sealed class EvidenceReports(IDbConnectionFactory connections, TimeProvider time, IFleetAssessments assessments, WindowedZeroing zeroing)
    : IEvidenceReportSource
{
    public const string DmvEvidence = "services DMV (sys.dm_server_services.instant_file_initialization_enabled)";
    public const string ErrorLogEvidence = "error log (the start-up line about instant file initialization)";
    public const string NoEvidence = "none";

    static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web);

    public async Task<EvidenceReport> BuildAsync(DateTimeOffset from, DateTimeOffset to, string? environment, string? tag, CancellationToken ct)
    {
        // The period's time lost, the figures the time-lost API gives for it; read before the store snapshot below is
        // taken, since the first assessment of a starting server writes the day's statuses, which the snapshot must see.
        var fleet = await assessments.GetAsync(ct);
        var lost = await zeroing.ReportAsync(fleet, from, to, ct);

        var bounds = new { from, to, fromDay = Day(from), toDay = Day(to) };
        await using var connection = await connections.OpenAsync(ct);
        // One snapshot of the store: the sections must agree with each other.
        await using var tx = await connection.BeginReadSnapshotAsync(ct);

        var instances = (await connection.QueryAsync<InstanceRow>(new CommandDefinition("""
            SELECT id AS Id, name AS Name, external_key AS ExternalKey, environment AS Environment, owner AS Owner, tags AS Tags
            FROM instances
            WHERE created_at < @to AND (retired_at IS NULL OR retired_at >= @from)
            ORDER BY id;
            """, bounds, tx, cancellationToken: ct)))
            .Where(i => environment is null || string.Equals(i.Environment, environment, StringComparison.OrdinalIgnoreCase))
            .Where(i => tag is null || i.Tags.Value.Contains(tag, StringComparer.OrdinalIgnoreCase))
            .ToList();
        var inScope = instances.Select(i => i.Id).ToHashSet();

        var versions = (await connection.QueryAsync<PolicyRow>(new CommandDefinition("""
            SELECT version AS Version, author AS Author, created_at AS CreatedAt, rules AS Rules
            FROM policy_versions
            WHERE created_at < @to
            ORDER BY version;
            """, bounds, tx, cancellationToken: ct))).ToList();
        // The version in force when the period began, and each one saved during it.
        var inForceAtStart = versions.LastOrDefault(v => v.CreatedAt <= from);
        var policy = versions
            .Where(v => v == inForceAtStart || v.CreatedAt > from)
            .Select(v => new EvidencePolicyVersion((int)v.Version, v.Author, v.CreatedAt,
                v == inForceAtStart ? from : v.CreatedAt, v.Rules))
            .ToList();

        var names = instances.ToDictionary(i => i.Id, i => i.Name);
        var waivers = (await connection.QueryAsync<WaiverRow>(new CommandDefinition("""
            SELECT id AS Id, instance_id AS InstanceId, reason AS Reason, author AS Author, approved_by AS ApprovedBy,
                granted_at AS GrantedAt, expires_at AS ExpiresAt, revoked_at AS RevokedAt, revoked_by AS RevokedBy
            FROM waivers
            WHERE granted_at < @to AND expires_at >= @from AND (revoked_at IS NULL OR revoked_at >= @from)
            ORDER BY id;
            """, bounds, tx, cancellationToken: ct)))
            .Where(w => inScope.Contains(w.InstanceId))
            .Select(w => new EvidenceWaiver(w.Id, w.InstanceId, names[w.InstanceId], w.Reason, w.Author, w.ApprovedBy,
                w.GrantedAt, w.ExpiresAt, w.RevokedAt, w.RevokedBy))
            .ToList();

        var days = (await connection.QueryAsync<(long InstanceId, string Status, long Days)>(new CommandDefinition("""
            SELECT instance_id, status, COUNT(*)
            FROM daily_compliance
            WHERE day >= @fromDay AND day < @toDay
            GROUP BY instance_id, status;
            """, bounds, tx, cancellationToken: ct))).ToLookup(d => d.InstanceId);

        var polls = (await connection.QueryAsync<LastPollRow>(new CommandDefinition($"""
            SELECT p.instance_id AS InstanceId, p.finished_at AS FinishedAt, p.collector_name AS Collector, p.outcome AS Outcome,
                p.ifi_state AS IfiState,
                (SELECT COUNT(*) FROM probe_outcomes o WHERE o.poll_id = p.id AND o.probe = '{ProbeNames.ErrorLog}' AND o.outcome = '{nameof(OutcomeClass.Ok)}') AS FromErrorLog,
                (SELECT COUNT(*) FROM probe_outcomes o WHERE o.poll_id = p.id AND o.probe = '{ProbeNames.Services}' AND o.outcome = '{nameof(OutcomeClass.Ok)}') AS FromServices
            FROM polls p
            WHERE p.id IN (
                SELECT MAX(id) FROM polls WHERE finished_at >= @from AND finished_at < @to GROUP BY instance_id);
            """, bounds, tx, cancellationToken: ct))).ToDictionary(p => p.InstanceId);

        var evidence = instances.Select(i =>
        {
            var byStatus = days[i.Id].OrderBy(d => d.Status, StringComparer.Ordinal).ToDictionary(d => d.Status, d => (int)d.Days);
            var poll = polls.GetValueOrDefault(i.Id);
            return new EvidenceInstance(i.Id, i.Name, i.ExternalKey, i.Environment, i.Owner, byStatus,
                byStatus.Keys.Select(Enum.Parse<ComplianceStatus>).OrderByDescending(DailyComplianceSeries.Badness)
                    .Select(status => status.ToString()).FirstOrDefault(),
                poll is null ? null : new EvidencePoll(poll.FinishedAt, poll.Collector, poll.Outcome, poll.IfiState,
                    poll.FromErrorLog > 0 ? ErrorLogEvidence : poll.FromServices > 0 && poll.IfiState != "Unknown" ? DmvEvidence : NoEvidence));
        }).ToList();

        var changes = (await connection.QueryAsync<ChangeRow>(new CommandDefinition("""
            SELECT id AS Id, occurred_at AS OccurredAt, actor AS Actor, remote_address AS RemoteAddress, action AS Action, target AS Target,
                before_json AS Before, after_json AS After
            FROM audit_log
            WHERE occurred_at >= @from AND occurred_at < @to
            ORDER BY id;
            """, bounds, tx, cancellationToken: ct)))
            .Select(c => new EvidenceChange(c.Id, c.OccurredAt, c.Actor, c.RemoteAddress, c.Action, c.Target, c.Before, c.After))
            .ToList();

        var business = EvidenceBusinessCase.From(BusinessCase.Build(fleet.Instances.Where(i => inScope.Contains(i.Registration.Id)), lost));

        var period = new EvidencePeriod(from, to, environment, tag, IsClosed: to <= time.GetUtcNow());
        return new EvidenceReport(period, policy, waivers, evidence, changes, business,
            Manifest(period, policy, waivers, evidence, changes, business));
    }

    /// <summary>
    /// The hash of each section as the JSON API serializes it, and of the six hashes joined by newlines: a report made
    /// again compares section by section.
    /// </summary>
    static EvidenceManifest Manifest(EvidencePeriod period, IReadOnlyList<EvidencePolicyVersion> policy, IReadOnlyList<EvidenceWaiver> waivers,
        IReadOnlyList<EvidenceInstance> instances, IReadOnlyList<EvidenceChange> changes, EvidenceBusinessCase business)
    {
        var sections = new SortedDictionary<string, string>(StringComparer.Ordinal)
        {
            ["period"] = Sha256(JsonSerializer.Serialize(period, Json)),
            ["policyVersions"] = Sha256(JsonSerializer.Serialize(policy, Json)),
            ["waivers"] = Sha256(JsonSerializer.Serialize(waivers, Json)),
            ["instances"] = Sha256(JsonSerializer.Serialize(instances, Json)),
            ["changes"] = Sha256(JsonSerializer.Serialize(changes, Json)),
            ["businessCase"] = Sha256(JsonSerializer.Serialize(business, Json)),
        };
        return new EvidenceManifest(sections, Sha256(string.Join('\n', sections.Select(s => $"{s.Key} {s.Value}"))));
    }

    static string Sha256(string text) => Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(text)));

    static string Day(DateTimeOffset at) => at.UtcDateTime.ToString("yyyy-MM-dd", System.Globalization.CultureInfo.InvariantCulture);

    sealed record InstanceRow(long Id, string Name, string? ExternalKey, string Environment, string? Owner, JsonColumn<IReadOnlyList<string>> Tags);
    sealed record PolicyRow(long Version, string Author, DateTimeOffset CreatedAt, string Rules);
    sealed record WaiverRow(long Id, long InstanceId, string Reason, string Author, string? ApprovedBy, DateTimeOffset GrantedAt, DateTimeOffset ExpiresAt,
        DateTimeOffset? RevokedAt, string? RevokedBy);
    sealed record LastPollRow(long InstanceId, DateTimeOffset FinishedAt, string Collector, string Outcome, string IfiState, long FromErrorLog, long FromServices);
    sealed record ChangeRow(long Id, DateTimeOffset OccurredAt, string Actor, string? RemoteAddress, string Action, string? Target, string? Before, string? After);
}
