using System.Data.Common;
using System.Globalization;
using System.Runtime.CompilerServices;
using Dapper;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Store.Reports;

/// <summary>
/// Reads what the evidence report of a period is made of. Every section comes from one read-only view of the store
/// (<see cref="ReadSnapshot"/>), so the sections agree with each other and no writer is held up.
/// </summary>
public sealed class EvidenceReportReader(IDbConnectionFactory connections)
{
    /// <summary>Opens the view of the store the period's sections are read from; the caller disposes it.</summary>
    public async Task<EvidencePeriodReads> OpenAsync(DateTimeOffset from, DateTimeOffset to, CancellationToken ct)
    {
        var connection = await connections.OpenAsync(ct);
        try
        {
            return new EvidencePeriodReads(connection, await connection.BeginReadSnapshotAsync(ct), from, to);
        }
        catch
        {
            await connection.DisposeAsync();
            throw;
        }
    }
}

/// <summary>The sections of one period's evidence, each read from the same view of the store.</summary>
public sealed class EvidencePeriodReads : IAsyncDisposable
{
    readonly DbConnection connection;
    readonly DbTransaction tx;
    readonly object bounds;

    internal EvidencePeriodReads(DbConnection connection, DbTransaction tx, DateTimeOffset from, DateTimeOffset to)
    {
        (this.connection, this.tx) = (connection, tx);
        bounds = new { from, to, fromDay = Day(from), toDay = Day(to) };
    }

    /// <summary>Every instance registered before the period ends and not retired before it begins, by id.</summary>
    public async Task<IReadOnlyList<EvidenceInstanceRow>> InstancesAsync(CancellationToken ct) =>
        (await connection.QueryAsync<InstanceRow>(new CommandDefinition("""
            SELECT id AS Id, name AS Name, external_key AS ExternalKey, environment AS Environment, owner AS Owner, tags AS Tags,
                created_at AS CreatedAt, retired_at AS RetiredAt, poll_interval_seconds AS PollIntervalSeconds
            FROM instances
            WHERE created_at < @to AND (retired_at IS NULL OR retired_at >= @from)
            ORDER BY id;
            """, bounds, tx, cancellationToken: ct)))
        .Select(i => new EvidenceInstanceRow(i.Id, i.Name, i.ExternalKey, i.Environment, i.Owner, i.Tags.Value, i.CreatedAt, i.RetiredAt,
            i.PollIntervalSeconds))
        .ToList();

    /// <summary>Every policy version saved before the period ends, by version.</summary>
    public async Task<IReadOnlyList<EvidencePolicyRow>> PolicyVersionsAsync(CancellationToken ct) =>
        (await connection.QueryAsync<PolicyRow>(new CommandDefinition("""
            SELECT version AS Version, author AS Author, created_at AS CreatedAt, rules AS Rules, rules AS ParsedRules
            FROM policy_versions
            WHERE created_at < @to
            ORDER BY version;
            """, bounds, tx, cancellationToken: ct)))
        .Select(v => new EvidencePolicyRow(v.Version, v.Author, v.CreatedAt, v.Rules, v.ParsedRules.Value))
        .ToList();

    /// <summary>Every waiver in force during some of the period, by id.</summary>
    public async Task<IReadOnlyList<EvidenceWaiverRow>> WaiversAsync(CancellationToken ct) =>
        (await connection.QueryAsync<EvidenceWaiverRow>(new CommandDefinition("""
            SELECT id AS Id, instance_id AS InstanceId, reason AS Reason, author AS Author, needs_approval AS NeedsApproval, approved_by AS ApprovedBy,
                granted_at AS GrantedAt, expires_at AS ExpiresAt, revoked_at AS RevokedAt, revoked_by AS RevokedBy
            FROM waivers
            WHERE granted_at < @to AND expires_at >= @from AND (revoked_at IS NULL OR revoked_at >= @from)
            ORDER BY id;
            """, bounds, tx, cancellationToken: ct))).ToList();

    /// <summary>Each instance's assessed status on each day of the period.</summary>
    public async Task<IReadOnlyList<EvidenceDailyStatus>> DailyStatusesAsync(CancellationToken ct) =>
        (await connection.QueryAsync<(long InstanceId, string Day, string Status)>(new CommandDefinition("""
            SELECT instance_id, day, status
            FROM daily_compliance
            WHERE day >= @fromDay AND day < @toDay;
            """, bounds, tx, cancellationToken: ct)))
        .Select(d => new EvidenceDailyStatus(d.InstanceId, DateOnly.ParseExact(d.Day, "yyyy-MM-dd", CultureInfo.InvariantCulture), d.Status))
        .ToList();

    /// <summary>Each instance's last poll of the period, with what its IFI state was read from, by instance id.</summary>
    public async Task<IReadOnlyDictionary<long, EvidenceLastPollRow>> LastPollsAsync(CancellationToken ct) =>
        (await connection.QueryAsync<EvidenceLastPollRow>(new CommandDefinition($"""
            SELECT p.instance_id AS InstanceId, p.finished_at AS FinishedAt, p.collector_name AS Collector, p.outcome AS Outcome,
                p.ifi_state AS IfiState,
                (SELECT COUNT(*) FROM probe_outcomes o WHERE o.poll_id = p.id AND o.probe = '{ProbeNames.ErrorLog}' AND o.outcome = '{nameof(OutcomeClass.Ok)}') AS FromErrorLog,
                (SELECT COUNT(*) FROM probe_outcomes o WHERE o.poll_id = p.id AND o.probe = '{ProbeNames.Services}' AND o.outcome = '{nameof(OutcomeClass.Ok)}') AS FromServices,
                COALESCE((SELECT MAX(s.ifi_enabled) FROM service_snapshots s WHERE s.poll_id = p.id AND s.is_engine = 1), '') AS EngineDmvIfi
            FROM polls p
            WHERE p.id IN (
                SELECT MAX(id) FROM polls WHERE finished_at >= @from AND finished_at < @to GROUP BY instance_id);
            """, bounds, tx, cancellationToken: ct))).ToDictionary(p => p.InstanceId);

    /// <summary>When each instance was last polled before the period began, by instance id.</summary>
    public async Task<IReadOnlyDictionary<long, DateTimeOffset>> LastPollsBeforeAsync(CancellationToken ct) =>
        (await connection.QueryAsync<(long InstanceId, DateTimeOffset FinishedAt)>(new CommandDefinition("""
            SELECT instance_id, MAX(finished_at) FROM polls WHERE finished_at < @from GROUP BY instance_id;
            """, bounds, tx, cancellationToken: ct))).ToDictionary(p => p.InstanceId, p => p.FinishedAt);

    /// <summary>
    /// When each poll of the period finished, one instance at a time and in order, for the instances asked for: a month
    /// of a large fleet is millions of rows, so only one instance's times are held at once. An instance without a poll
    /// in the period is left out.
    /// </summary>
    public async IAsyncEnumerable<(long InstanceId, IReadOnlyList<DateTimeOffset> Times)> PollTimesByInstanceAsync(
        IReadOnlySet<long> instanceIds, [EnumeratorCancellation] CancellationToken ct)
    {
        var current = (Id: -1L, Times: new List<DateTimeOffset>());
        await foreach (var poll in connection.QueryUnbufferedAsync<(long InstanceId, DateTimeOffset FinishedAt)>("""
            SELECT instance_id, finished_at FROM polls WHERE finished_at >= @from AND finished_at < @to ORDER BY instance_id, finished_at;
            """, bounds, tx).WithCancellation(ct))
        {
            if (poll.InstanceId != current.Id)
            {
                if (instanceIds.Contains(current.Id)) yield return current;
                current = (poll.InstanceId, []);
            }
            if (instanceIds.Contains(poll.InstanceId)) current.Times.Add(poll.FinishedAt);
        }
        if (instanceIds.Contains(current.Id)) yield return current;
    }

    /// <summary>Every audit entry written during the period, by id.</summary>
    public async Task<IReadOnlyList<EvidenceChangeRow>> ChangesAsync(CancellationToken ct) =>
        (await connection.QueryAsync<EvidenceChangeRow>(new CommandDefinition("""
            SELECT id AS Id, occurred_at AS OccurredAt, actor AS Actor, remote_address AS RemoteAddress, action AS Action, target AS Target,
                before_json AS Before, after_json AS After
            FROM audit_log
            WHERE occurred_at >= @from AND occurred_at < @to
            ORDER BY id;
            """, bounds, tx, cancellationToken: ct))).ToList();

    public async ValueTask DisposeAsync()
    {
        await tx.DisposeAsync();
        await connection.DisposeAsync();
    }

    static string Day(DateTimeOffset at) => at.UtcDateTime.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);

    // Rows as the store holds them (JSON columns as text), mapped to the records below.
    sealed record InstanceRow(long Id, string Name, string? ExternalKey, string Environment, string? Owner, JsonColumn<IReadOnlyList<string>> Tags,
        DateTimeOffset CreatedAt, DateTimeOffset? RetiredAt, long PollIntervalSeconds);
    sealed record PolicyRow(long Version, string Author, DateTimeOffset CreatedAt, string Rules, JsonColumn<IReadOnlyList<PolicyRule>> ParsedRules);
}

public sealed record EvidenceInstanceRow(long Id, string Name, string? ExternalKey, string Environment, string? Owner, IReadOnlyList<string> Tags,
    DateTimeOffset CreatedAt, DateTimeOffset? RetiredAt, long PollIntervalSeconds);

/// <param name="Rules">The rules as the store holds them (JSON), for the machine-readable files.</param>
public sealed record EvidencePolicyRow(long Version, string Author, DateTimeOffset CreatedAt, string Rules, IReadOnlyList<PolicyRule> ParsedRules);

public sealed record EvidenceWaiverRow(long Id, long InstanceId, string Reason, string Author, long NeedsApproval, string? ApprovedBy,
    DateTimeOffset GrantedAt, DateTimeOffset ExpiresAt, DateTimeOffset? RevokedAt, string? RevokedBy);

public sealed record EvidenceDailyStatus(long InstanceId, DateOnly Day, string Status);

/// <param name="FromErrorLog">How many of the poll's error-log probes read the log (0 or 1).</param>
/// <param name="FromServices">How many of the poll's services probes read the services DMV (0 or 1).</param>
/// <param name="EngineDmvIfi">What the services DMV said of the engine service ('Y', 'N'), or empty.</param>
public sealed record EvidenceLastPollRow(long InstanceId, DateTimeOffset FinishedAt, string Collector, string Outcome, string IfiState, long FromErrorLog,
    long FromServices, string? EngineDmvIfi);

public sealed record EvidenceChangeRow(long Id, DateTimeOffset OccurredAt, string Actor, string? RemoteAddress, string Action, string? Target,
    string? Before, string? After);
