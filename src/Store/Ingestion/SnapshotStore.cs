using System.Data.Common;
using Dapper;
using IfiDashboard.Store.Ingestion;
using IfiDashboard.Store.Retention;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Store.Ingestion;

/// <summary>
/// Stores a snapshot in one transaction: the poll, its probe outcomes and services, the instance's current state and
/// any IFI timeline change. Idempotent by snapshot id: a snapshot delivered twice is stored once.
/// With retention on (<paramref name="retention"/>), growth events older than the retention period are not stored.
/// </summary>
public sealed class SnapshotStore(IDbConnectionFactory connections, RetentionHorizon? retention = null) : ISnapshotSink
{
    public Task WriteAsync(InstanceSnapshot snapshot, CancellationToken cancellationToken) =>
        WriteAsync(snapshot, leaseHolder: null, cancellationToken);

    /// <summary>
    /// Stores the snapshot only when <paramref name="leaseHolder"/> (when given) held its instance when the poll
    /// started, checked inside the write transaction: it is the collector that last leased the instance and the poll
    /// started from its first lease of the instance on (less <paramref name="clockSkew"/>); or another collector has
    /// taken the instance over from it since, and the poll started within the tenure that takeover ended (from the
    /// takeover that gave it the instance, or from when the collector was first heard from, less the skew, and strictly
    /// before it was taken: no allowance there, so that no poll after a takeover counts).
    /// So a poll made through an outage (docs/deployment.md, "Leases and failover") is stored when it is delivered late,
    /// as history when a newer poll is stored already, and a collector that never held the instance stores nothing.
    /// </summary>
    /// <remarks>
    /// A lease holder's snapshot that carries <see cref="InstanceSnapshot.NextPollAt"/> also completes the lease, in the
    /// same transaction, as <see cref="Inventory.StoreInstanceSource.CompleteAsync(long, string, DateTimeOffset, CancellationToken)"/>
    /// would at <paramref name="now"/>. A snapshot delivered again completes nothing: its first delivery did.
    /// </remarks>
    /// <returns>False, with nothing stored, when the instance was not leased to that collector when the poll started.</returns>
    public async Task<bool> WriteAsync(InstanceSnapshot snapshot, string? leaseHolder, CancellationToken cancellationToken,
        TimeSpan clockSkew = default, DateTimeOffset now = default)
    {
        // A snapshot stored before counts as delivered even when the lease has passed on since: the outbox that sends
        // it again must not be stuck on it. leased_since is empty for leases made before it was recorded (0022).
        const string admittedSql = """
            SELECT (SELECT COUNT(*) FROM instances WHERE id = @instanceId AND last_leased_by = @leaseHolder
                        AND (leased_since IS NULL OR leased_since <= @latestLeaseStart))
                 + (SELECT COUNT(*) FROM collector_takeovers ended
                    WHERE ended.instance_id = @instanceId AND ended.taken_from = @leaseHolder AND ended.taken_at > @startedAt
                      AND COALESCE(
                          (SELECT MAX(began.taken_at) FROM collector_takeovers began
                           WHERE began.instance_id = @instanceId AND began.collector_name = @leaseHolder AND began.taken_at < ended.taken_at),
                          (SELECT first_seen_at FROM collectors WHERE name = @leaseHolder)) <= @latestLeaseStart)
                 + (SELECT COUNT(*) FROM polls WHERE snapshot_id = @snapshotId);
            """;
        // The completion caps the next poll relative to the server's clock: without it the cap would be year 1.
        if (leaseHolder is not null && snapshot.NextPollAt is not null && now == default)
            throw new ArgumentException("A snapshot that completes its lease needs the server's clock.", nameof(now));
        using var span = IngestionTelemetry.StartStoring(snapshot);
        await using var connection = await connections.OpenAsync(cancellationToken);
        await using var tx = await connection.BeginInstanceWriteAsync(snapshot.InstanceId, cancellationToken);
        var dialect = connections.Dialect;

        // Every read the snapshot needs, and the poll's insert, in one batch: the insert goes before the admission
        // check is known, since a refused snapshot's transaction is rolled back with it.
        var reads = new StatementBatch();
        var admitted = true;
        if (leaseHolder is not null)
            reads.Add(admittedSql, async (reader, ct) => admitted = await reader.ReadAsync(ct) && Convert.ToInt64(reader.GetValue(0),
                    System.Globalization.CultureInfo.InvariantCulture) > 0,
                ("instanceId", snapshot.InstanceId), ("leaseHolder", leaseHolder), ("latestLeaseStart", snapshot.StartedAt + clockSkew),
                ("startedAt", snapshot.StartedAt), ("snapshotId", snapshot.SnapshotId.ToString("D")));
        long? pollId = null;
        AddPollInsert(reads, snapshot, admitting: leaseHolder is not null, id => pollId = id);
        InstanceStateRow? previous = null;
        InstanceStateStore.AddRead(reads, snapshot.InstanceId, row => previous = row);
        var storedLists = CollectedFactsStore.AddReads(reads, snapshot);
        var completion = leaseHolder is not null && snapshot.NextPollAt is { } nextPollAt
            ? new Inventory.LeaseCompletion(snapshot.InstanceId, leaseHolder, nextPollAt, now)
            : null;
        completion?.AddRead(reads);
        await reads.ExecuteAsync(connection, tx, cancellationToken);
        if (!admitted)
            return false;
        if (pollId is null)
        {
            IngestionTelemetry.MarkDuplicate(span);
            return true; // already stored: the rollback on dispose ends the empty transaction
        }

        // Every write whose result is not needed, in one batch before the commit.
        var poll = new StoredSnapshot(snapshot, pollId.Value);
        var writes = new StatementBatch();
        AddProbes(writes, dialect, poll);
        AddServices(writes, dialect, poll);
        var isLatest = await UpdateStateAsync(connection, tx, writes, poll, previous, cancellationToken);
        // Read inside the write transaction: after any prune that committed before it, so never older than that cut-off.
        var keepEventsFrom = retention?.GrowthEventsKeptFrom();
        await CollectedFactsStore.WriteAsync(connection, tx, dialect, writes, poll, isLatest, storedLists, keepEventsFrom, cancellationToken);
        if (!isLatest)
            InstanceStateStore.AddLatePollCount(writes, snapshot.InstanceId);
        completion?.AddWrite(writes);
        await writes.ExecuteAsync(connection, tx, cancellationToken);
        await tx.CommitAsync(cancellationToken);
        return true;
    }

    /// <param name="admitting">The insert goes before the admission check's answer is known: for an instance that
    /// does not exist it inserts nothing (the check refuses it), where a lone insert would fail on the foreign key.</param>
    static void AddPollInsert(StatementBatch reads, InstanceSnapshot snapshot, bool admitting, Action<long?> inserted)
    {
        const string insert = """
            INSERT INTO polls (snapshot_id, instance_id, collector_name, started_at, finished_at, outcome, message,
                ifi_state, ifi_unknown_reason, is_good)
            SELECT @snapshotId, @instanceId, @collectorName, @startedAt, @finishedAt, @outcome, @message,
                @ifiState, @ifiUnknownReason, @isGood
            """;
        const string returning = """

            ON CONFLICT (snapshot_id) DO NOTHING
            RETURNING id;
            """;
        // SQLite needs a WHERE before ON CONFLICT after a SELECT.
        var sql = insert + (admitting ? "\nWHERE EXISTS (SELECT 1 FROM instances WHERE id = @instanceId)" : "\nWHERE 1 = 1") + returning;
        var ifi = IfiObservation.From(snapshot);
        var overall = snapshot.Overall;
        reads.Add(sql, async (reader, ct) => inserted(await reader.ReadAsync(ct) ? Convert.ToInt64(reader.GetValue(0),
                System.Globalization.CultureInfo.InvariantCulture) : null),
            ("snapshotId", snapshot.SnapshotId.ToString("D")), ("instanceId", snapshot.InstanceId),
            ("collectorName", snapshot.CollectorName), ("startedAt", snapshot.StartedAt), ("finishedAt", snapshot.FinishedAt),
            ("outcome", overall.Outcome.ToString()), ("message", overall.Message), ("ifiState", ifi.State.ToString()),
            ("ifiUnknownReason", ifi.UnknownReason), ("isGood", StoredSnapshot.IsGoodPoll(snapshot) ? 1L : 0L));
    }

    static void AddProbes(StatementBatch writes, SqlDialect dialect, StoredSnapshot poll)
    {
        const string sql = """
            INSERT INTO probe_outcomes (poll_id, probe, outcome, message, sql_error_number)
            {rows};
            """;
        var rows = poll.Snapshot.Probes.Select(p => new object?[]
        {
            poll.PollId, p.Probe, p.Outcome.ToString(), p.Message, (long?)p.SqlErrorNumber,
        }).ToList();
        writes.AddRows(dialect, sql, ProbeColumns, rows);
    }

    static readonly StoreColumn[] ProbeColumns =
        [StoreColumn.Integer, StoreColumn.Text, StoreColumn.Text, StoreColumn.Text, StoreColumn.Integer];

    static void AddServices(StatementBatch writes, SqlDialect dialect, StoredSnapshot poll)
    {
        const string sql = """
            INSERT INTO service_snapshots (poll_id, service_name, service_account, status_desc, startup_type_desc,
                process_id, last_startup_time, is_clustered, ifi_enabled, is_engine)
            {rows};
            """;
        var rows = poll.Snapshot.Services.Select(s => new object?[]
        {
            poll.PollId, s.ServiceName, s.ServiceAccount, s.StatusDesc, s.StartupTypeDesc,
            (long)s.ProcessId, StoreTime.ToText(s.LastStartupTime), s.IsClustered, s.InstantFileInitializationEnabled,
            s.IsEngine ? 1L : 0L,
        }).ToList();
        writes.AddRows(dialect, sql, ServiceColumns, rows);
    }

    static readonly StoreColumn[] ServiceColumns =
    [
        StoreColumn.Integer, StoreColumn.Text, StoreColumn.Text, StoreColumn.Text, StoreColumn.Text,
        StoreColumn.Integer, StoreColumn.Text, StoreColumn.Text, StoreColumn.Text, StoreColumn.Integer,
    ];

    /// <returns>False when the snapshot is older than the stored state (kept as history only).</returns>
    /// <param name="previous">The stored state, read with the snapshot's other reads.</param>
    static async Task<bool> UpdateStateAsync(DbConnection connection, DbTransaction tx, StatementBatch writes, StoredSnapshot poll,
        InstanceStateRow? previous, CancellationToken cancellationToken)
    {
        // A replayed snapshot older than the state (an on-disk queue drained late) is kept as history only: it must
        // not move the current state, or the timeline, backwards.
        if (previous is not null && previous.LastPollAt > poll.Snapshot.FinishedAt)
            return false;

        var next = InstanceStateRow.After(previous, poll);
        if (poll.IsGood && EngineChange.Between(previous, next) is { Count: > 0 } changes)
            await InstanceStateStore.InsertChangesAsync(connection, tx, poll, EngineChange.Doubted(changes,
                await InstanceStateStore.CollectorOfAsync(connection, tx, previous?.LastGoodPollId, cancellationToken),
                poll.Snapshot.CollectorName), cancellationToken);
        InstanceStateStore.AddUpsert(writes, next, TraceClockAndCluster.Of(poll.Snapshot));
        return true;
    }
}
