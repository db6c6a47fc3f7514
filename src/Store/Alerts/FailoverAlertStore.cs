using Dapper;
using IfiDashboard.Compliance.Timeline;
using IfiDashboard.Store.Ingestion;
using IfiDashboard.Shared.Alerts;

namespace IfiDashboard.Store.Alerts;

/// <summary>
/// The failovers the alert evaluation has not looked at yet: availability-group role changes and failover cluster
/// owner moves on the timeline (<c>ifi_changes</c>) after the mark in <c>alert_failover_cursor</c>. The rows are read,
/// decided on, queued and the mark moved in one write transaction, so each failover is told once, also by two servers
/// on one store.
/// </summary>
public sealed class FailoverAlertStore(IDbConnectionFactory connections, TimeProvider time)
{
    /// <param name="decide">
    /// Given the failovers after the mark (oldest first) and the silences in force: the messages to queue and the id of
    /// the last failover decided on (a failover whose poll the assessment has not seen yet waits for the next one).
    /// </param>
    /// <returns>How many outbox rows were written.</returns>
    public async Task<int> EvaluateAsync(
        Func<IReadOnlyList<(long Id, TimelineChange Change)>, IReadOnlyList<AlertSilence>, (long DecidedUpTo, IReadOnlyList<OutboxMessage> Messages)> decide,
        CancellationToken ct)
    {
        const string readMark = "SELECT last_change_id FROM alert_failover_cursor WHERE id = 1;";
        const string newest = "SELECT COALESCE(MAX(id), 0) FROM ifi_changes;";
        const string setMark = """
            INSERT INTO alert_failover_cursor (id, last_change_id) VALUES (1, @mark)
            ON CONFLICT (id) DO UPDATE SET last_change_id = excluded.last_change_id;
            """;
        const string failovers = """
            SELECT c.id AS Id, c.instance_id AS InstanceId, c.field AS Field, c.changed_at AS ChangedAt,
                c.old_value AS OldValue, c.new_value AS NewValue, p.snapshot_id AS SnapshotId
            FROM ifi_changes c
            JOIN polls p ON p.id = c.poll_id
            WHERE c.id > @mark AND c.field IN (@role, @owner)
            ORDER BY c.id
            LIMIT 500;
            """;

        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        var mark = await connection.QuerySingleOrDefaultAsync<long?>(new CommandDefinition(readMark, transaction: tx, cancellationToken: ct));
        if (mark is null)
        {
            // The first evaluation on this store: failovers from before alerting looked are history, not news.
            var start = await connection.ExecuteScalarAsync<long>(new CommandDefinition(newest, transaction: tx, cancellationToken: ct));
            await connection.ExecuteAsync(new CommandDefinition(setMark, new { mark = start }, tx, cancellationToken: ct));
            await tx.CommitAsync(ct);
            return 0;
        }
        var rows = (await connection.QueryAsync<FailoverRow>(new CommandDefinition(failovers,
            new { mark, role = EngineChange.AvailabilityRole, owner = EngineChange.ClusterOwner }, tx, cancellationToken: ct))).ToList();
        if (rows.Count == 0) return 0;

        var now = time.GetUtcNow();
        var active = await AlertSilenceStore.ActiveAsync(connection, tx, now, ct);
        var (decidedUpTo, messages) = decide(rows.Select(r => (r.Id, r.ToChange())).ToList(), active);
        if (decidedUpTo <= mark) return 0;
        await connection.ExecuteAsync(new CommandDefinition(setMark, new { mark = decidedUpTo }, tx, cancellationToken: ct));
        var written = await OutboxWriter.InsertAsync(connection, tx, messages, now, ct);
        await tx.CommitAsync(ct);
        return written;
    }

    sealed class FailoverRow
    {
        public long Id { get; init; }
        public long InstanceId { get; init; }
        public string Field { get; init; } = "";
        public DateTimeOffset ChangedAt { get; init; }
        public string? OldValue { get; init; }
        public string? NewValue { get; init; }
        public string SnapshotId { get; init; } = "";

        public TimelineChange ToChange() => new()
        {
            InstanceId = InstanceId,
            Kind = Field == EngineChange.ClusterOwner ? TimelineChangeKind.ClusterOwnerMove : TimelineChangeKind.AvailabilityFailover,
            Before = OldValue ?? "",
            After = NewValue ?? "",
            SeenAt = ChangedAt,
            SeenBySnapshotId = Guid.Parse(SnapshotId),
        };
    }
}
