using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using Dapper;
using IfiDashboard.Client.Pages.Reports;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Summary;
using IfiDashboard.Server.Reports;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Store;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Store.Reports;
using IfiDashboard.Server.Compliance;

namespace IfiDashboard.Server.Reports;

/// <summary>Builds the <see cref="EvidenceReport"/> of a period from the store, in one read transaction.</summary>
public sealed class EvidenceReports(IDbConnectionFactory connections, TimeProvider time, IFleetAssessments assessments, WindowedZeroing zeroing,
    EvidenceSigningKey signing)
    : IEvidenceReportSource
{
    public const string DmvEvidence = "services DMV (sys.dm_server_services.instant_file_initialization_enabled)";
    public const string ErrorLogEvidence = "error log (the start-up line about instant file initialization)";
    public const string TraceFlagEvidence = "trace flag 1806 (DBCC TRACESTATUS), which turns IFI off whatever the services DMV says";
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
            SELECT id AS Id, name AS Name, external_key AS ExternalKey, environment AS Environment, owner AS Owner, tags AS Tags,
                created_at AS CreatedAt, retired_at AS RetiredAt, poll_interval_seconds AS PollIntervalSeconds
            FROM instances
            WHERE created_at < @to AND (retired_at IS NULL OR retired_at >= @from)
            ORDER BY id;
            """, bounds, tx, cancellationToken: ct)))
            .Where(i => environment is null || string.Equals(i.Environment, environment, StringComparison.OrdinalIgnoreCase))
            .Where(i => tag is null || i.Tags.Value.Contains(tag, StringComparer.OrdinalIgnoreCase))
            .ToList();
        var inScope = instances.Select(i => i.Id).ToHashSet();

        var versions = (await connection.QueryAsync<PolicyRow>(new CommandDefinition("""
            SELECT version AS Version, author AS Author, created_at AS CreatedAt, rules AS Rules, rules AS ParsedRules
            FROM policy_versions
            WHERE created_at < @to
            ORDER BY version;
            """, bounds, tx, cancellationToken: ct))).ToList();
        // The version in force when the period began, and each one saved during it.
        var inForceAtStart = versions.LastOrDefault(v => v.CreatedAt <= from);
        var policy = versions
            .Where(v => v == inForceAtStart || v.CreatedAt > from)
            .Select(v => new EvidencePolicyVersion((int)v.Version, v.Author, v.CreatedAt,
                v == inForceAtStart ? from : v.CreatedAt, v.Rules, EvidenceSentences.Rules(v.ParsedRules.Value)))
            .ToList();

        var names = instances.ToDictionary(i => i.Id, i => i.Name);
        var waivers = (await connection.QueryAsync<WaiverRow>(new CommandDefinition("""
            SELECT id AS Id, instance_id AS InstanceId, reason AS Reason, author AS Author, needs_approval AS NeedsApproval, approved_by AS ApprovedBy,
                granted_at AS GrantedAt, expires_at AS ExpiresAt, revoked_at AS RevokedAt, revoked_by AS RevokedBy
            FROM waivers
            WHERE granted_at < @to AND expires_at >= @from AND (revoked_at IS NULL OR revoked_at >= @from)
            ORDER BY id;
            """, bounds, tx, cancellationToken: ct)))
            .Where(w => inScope.Contains(w.InstanceId))
            .Select(w => new EvidenceWaiver(w.Id, w.InstanceId, names[w.InstanceId], w.Reason, w.Author, w.NeedsApproval != 0, w.ApprovedBy,
                w.GrantedAt, w.ExpiresAt, w.RevokedAt, w.RevokedBy))
            .ToList();

        var daily = (await connection.QueryAsync<(long InstanceId, string Day, string Status)>(new CommandDefinition("""
            SELECT instance_id, day, status
            FROM daily_compliance
            WHERE day >= @fromDay AND day < @toDay;
            """, bounds, tx, cancellationToken: ct))).ToList();
        // A day on which the store took any instance's assessment had a server running: a silent instance then is the
        // collectors', not an outage's.
        var storeDays = daily.Select(d => DateOnly.ParseExact(d.Day, "yyyy-MM-dd", CultureInfo.InvariantCulture)).ToHashSet();
        var statuses = daily.ToLookup(d => d.InstanceId);

        var polls = (await connection.QueryAsync<LastPollRow>(new CommandDefinition($"""
            SELECT p.instance_id AS InstanceId, p.finished_at AS FinishedAt, p.collector_name AS Collector, p.outcome AS Outcome,
                p.ifi_state AS IfiState,
                (SELECT COUNT(*) FROM probe_outcomes o WHERE o.poll_id = p.id AND o.probe = '{ProbeNames.ErrorLog}' AND o.outcome = '{nameof(OutcomeClass.Ok)}') AS FromErrorLog,
                (SELECT COUNT(*) FROM probe_outcomes o WHERE o.poll_id = p.id AND o.probe = '{ProbeNames.Services}' AND o.outcome = '{nameof(OutcomeClass.Ok)}') AS FromServices,
                COALESCE((SELECT MAX(s.ifi_enabled) FROM service_snapshots s WHERE s.poll_id = p.id AND s.is_engine = 1), '') AS EngineDmvIfi
            FROM polls p
            WHERE p.id IN (
                SELECT MAX(id) FROM polls WHERE finished_at >= @from AND finished_at < @to GROUP BY instance_id);
            """, bounds, tx, cancellationToken: ct))).ToDictionary(p => p.InstanceId);

        var previousPolls = (await connection.QueryAsync<(long InstanceId, DateTimeOffset FinishedAt)>(new CommandDefinition("""
            SELECT instance_id, MAX(finished_at) FROM polls WHERE finished_at < @from GROUP BY instance_id;
            """, bounds, tx, cancellationToken: ct))).ToDictionary(p => p.InstanceId, p => p.FinishedAt);

        var observedUntil = Min(to, time.GetUtcNow());
        var (firstDay, endDay) = (DateOnly.FromDateTime(from.UtcDateTime), DateOnly.FromDateTime(to.UtcDateTime));
        var coverage = new Dictionary<long, IReadOnlyList<EvidenceDay>>();
        var byId = instances.ToDictionary(i => i.Id);
        IReadOnlyList<EvidenceDay> Cover(InstanceRow i, IReadOnlyList<DateTimeOffset> times) => EvidenceCoverage.Days(firstDay, endDay, observedUntil,
            new EvidenceCoverage.Watch(i.CreatedAt, i.RetiredAt, TimeSpan.FromSeconds(Math.Max(1, i.PollIntervalSeconds)),
                previousPolls.TryGetValue(i.Id, out var previous) ? previous : null, times),
            storeDays, statuses[i.Id].ToDictionary(d => DateOnly.ParseExact(d.Day, "yyyy-MM-dd", CultureInfo.InvariantCulture), d => d.Status));
        // Every poll of the period, one instance at a time: a month of a large fleet is millions of rows, so only one
        // instance's times are held at once.
        var current = (Id: -1L, Times: new List<DateTimeOffset>());
        await foreach (var poll in connection.QueryUnbufferedAsync<(long InstanceId, DateTimeOffset FinishedAt)>("""
            SELECT instance_id, finished_at FROM polls WHERE finished_at >= @from AND finished_at < @to ORDER BY instance_id, finished_at;
            """, bounds, tx).WithCancellation(ct))
        {
            if (poll.InstanceId != current.Id)
            {
                if (byId.TryGetValue(current.Id, out var done)) coverage[current.Id] = Cover(done, current.Times);
                current = (poll.InstanceId, []);
            }
            if (byId.ContainsKey(poll.InstanceId)) current.Times.Add(poll.FinishedAt);
        }
        if (byId.TryGetValue(current.Id, out var last)) coverage[current.Id] = Cover(last, current.Times);

        var evidence = instances.Select(i =>
        {
            var days = coverage.TryGetValue(i.Id, out var covered) ? covered : Cover(i, []);
            var byStatus = days.Where(d => d.Status is not null).GroupBy(d => d.Status!).OrderBy(g => g.Key, StringComparer.Ordinal)
                .ToDictionary(g => g.Key, g => g.Count());
            var byCoverage = days.GroupBy(d => d.Coverage).OrderBy(g => g.Key).ToDictionary(g => g.Key.ToString(), g => g.Count());
            var poll = polls.GetValueOrDefault(i.Id);
            return new EvidenceInstance(i.Id, i.Name, i.ExternalKey, i.Environment, i.Owner, byStatus,
                byStatus.Keys.Select(Enum.Parse<ComplianceStatus>).OrderByDescending(DailyComplianceSeries.Badness)
                    .Select(status => status.ToString()).FirstOrDefault(),
                byCoverage, days,
                poll is null ? null : new EvidencePoll(poll.FinishedAt, poll.Collector, poll.Outcome, poll.IfiState, IfiEvidence(poll)));
        }).ToList();

        var changes = (await connection.QueryAsync<ChangeRow>(new CommandDefinition("""
            SELECT id AS Id, occurred_at AS OccurredAt, actor AS Actor, remote_address AS RemoteAddress, action AS Action, target AS Target,
                before_json AS Before, after_json AS After
            FROM audit_log
            WHERE occurred_at >= @from AND occurred_at < @to
            ORDER BY id;
            """, bounds, tx, cancellationToken: ct)))
            .Select(c => new EvidenceChange(c.Id, c.OccurredAt, c.Actor, c.RemoteAddress, c.Action, c.Target, c.Before, c.After,
                EvidenceSentences.Change(c.Actor, c.Action, c.Target, c.Before, c.After)))
            .ToList();

        var business = EvidenceBusinessCase.From(BusinessCase.Build(fleet.Instances.Where(i => inScope.Contains(i.Registration.Id)), lost));

        var period = new EvidencePeriod(from, to, environment, tag, IsClosed: to <= time.GetUtcNow());
        return new EvidenceReport(period, policy, waivers, evidence, changes, business,
            Manifest(period, policy, waivers, evidence, changes, business));
    }

    /// <summary>
    /// The hash of each section as the JSON API serializes it, and of the six hashes joined by newlines: a report made
    /// again compares section by section. The server's key signs the manifest's text.
    /// </summary>
    EvidenceManifest Manifest(EvidencePeriod period, IReadOnlyList<EvidencePolicyVersion> policy, IReadOnlyList<EvidenceWaiver> waivers,
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
        var report = Sha256(string.Join('\n', sections.Select(s => $"{s.Key} {s.Value}")));
        return new EvidenceManifest(sections, report, signing.Fingerprint,
            Convert.ToBase64String(signing.Sign(EvidenceManifest.TextOf(sections, report))));
    }

    /// <summary>
    /// What decided the poll's IFI state (<see cref="IfiObservation.From"/>): trace flag 1806 where the engine service
    /// holds the right (the DMV says Y) yet the state is off, as the assessment reads it (InstanceAssessor); else the
    /// error log's start-up line on builds without the DMV column, else the DMV.
    /// </summary>
    static string IfiEvidence(LastPollRow poll) =>
        poll.IfiState == nameof(IfiState.Disabled) && poll.EngineDmvIfi == "Y" ? TraceFlagEvidence
        : poll.FromErrorLog > 0 ? ErrorLogEvidence
        : poll.FromServices > 0 && poll.IfiState != nameof(IfiState.Unknown) ? DmvEvidence
        : NoEvidence;

    static DateTimeOffset Min(DateTimeOffset a, DateTimeOffset b) => a < b ? a : b;

    static string Sha256(string text) => Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(text)));

    static string Day(DateTimeOffset at) => at.UtcDateTime.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);

    sealed record InstanceRow(long Id, string Name, string? ExternalKey, string Environment, string? Owner, JsonColumn<IReadOnlyList<string>> Tags,
        DateTimeOffset CreatedAt, DateTimeOffset? RetiredAt, long PollIntervalSeconds);
    sealed record PolicyRow(long Version, string Author, DateTimeOffset CreatedAt, string Rules, JsonColumn<IReadOnlyList<PolicyRule>> ParsedRules);
    sealed record WaiverRow(long Id, long InstanceId, string Reason, string Author, long NeedsApproval, string? ApprovedBy, DateTimeOffset GrantedAt, DateTimeOffset ExpiresAt,
        DateTimeOffset? RevokedAt, string? RevokedBy);
    sealed record LastPollRow(long InstanceId, DateTimeOffset FinishedAt, string Collector, string Outcome, string IfiState, long FromErrorLog,
        long FromServices, string? EngineDmvIfi);
    sealed record ChangeRow(long Id, DateTimeOffset OccurredAt, string Actor, string? RemoteAddress, string Action, string? Target, string? Before, string? After);
}
