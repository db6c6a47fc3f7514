using System.Data.Common;
using Dapper;
using IfiDashboard.Compliance.Timeline;
using IfiDashboard.Store.Ingestion;
using IfiDashboard.Shared.Alerts;

namespace IfiDashboard.Store.Alerts;

/// <summary>
/// The failovers the alert evaluation has not looked at yet: availability-group role changes and failover cluster
/// owner moves on the timeline (<c>ifi_changes</c>) after the mark in <c>alert_failover_cursor</c>. The rows are read,
/// decided on without the store's writer lock (as <see cref="AlertStateStore"/> does, and for the same reason), then
/// queued and the mark moved in one write transaction only if the mark, the rows and the silences are still what was
/// decided on (otherwise decided again under the lock), so each failover is told once, also by two servers on one store.
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
        await using var connection = await connections.OpenAsync(ct);
        var seen = await ReadAsync(connection, null, time.GetUtcNow(), ct);
        if (seen is { Failovers.Count: 0 }) return 0;
        var decision = seen is null ? default : decide(seen.Failovers, seen.Silences);
        if (seen is not null && decision.DecidedUpTo <= seen.Mark) return 0;

        await using var tx = await connection.BeginWriteAsync(ct);
        var now = time.GetUtcNow();
        var current = await ReadAsync(connection, tx, now, ct);
        if (current is null)
        {
            // The first evaluation on this store: failovers from before alerting looked are history, not news.
            var start = await connection.ExecuteScalarAsync<long>(new CommandDefinition(Newest, transaction: tx, cancellationToken: ct));
            await connection.ExecuteAsync(new CommandDefinition(SetMark, new { mark = start }, tx, cancellationToken: ct));
            await tx.CommitAsync(ct);
            return 0;
        }
        if (!current.Equals(seen))
        {
            // Another evaluation moved the mark, a failover was recorded or a silence changed since the read.
            if (current.Failovers.Count == 0) return 0;
            decision = decide(current.Failovers, current.Silences);
        }
        if (decision.DecidedUpTo <= current.Mark) return 0;
        await connection.ExecuteAsync(new CommandDefinition(SetMark, new { mark = decision.DecidedUpTo }, tx, cancellationToken: ct));
        var written = await OutboxWriter.InsertAsync(connection, tx, decision.Messages, now, ct);
        await tx.CommitAsync(ct);
        return written;
    }

    const string Newest = "SELECT COALESCE(MAX(id), 0) FROM ifi_changes;";
    const string SetMark = """
        INSERT INTO alert_failover_cursor (id, last_change_id) VALUES (1, @mark)
        ON CONFLICT (id) DO UPDATE SET last_change_id = excluded.last_change_id;
        """;

    /// <summary>The mark, the failovers after it and the silences in force; null before the first evaluation set a mark.</summary>
    static async Task<DecisionInputs?> ReadAsync(DbConnection connection, DbTransaction? tx, DateTimeOffset now, CancellationToken ct)
    {
        const string readMark = "SELECT last_change_id FROM alert_failover_cursor WHERE id = 1;";
        const string failovers = """
            SELECT c.id AS Id, c.instance_id AS InstanceId, c.field AS Field, c.changed_at AS ChangedAt,
                c.old_value AS OldValue, c.new_value AS NewValue, p.snapshot_id AS SnapshotId
            FROM ifi_changes c
            JOIN polls p ON p.id = c.poll_id
            WHERE c.id > @mark AND c.field IN (@role, @owner)
            ORDER BY c.id
            LIMIT 500;
            """;
        var mark = await connection.QuerySingleOrDefaultAsync<long?>(new CommandDefinition(readMark, transaction: tx, cancellationToken: ct));
        if (mark is null) return null;
        var rows = await connection.QueryAsync<FailoverRow>(new CommandDefinition(failovers,
            new { mark, role = EngineChange.AvailabilityRole, owner = EngineChange.ClusterOwner }, tx, cancellationToken: ct));
        var failoverList = rows.Select(r => (r.Id, r.ToChange())).ToList();
        // Silences matter only to a decision, and there is none without a failover.
        var active = failoverList.Count == 0 ? [] : await AlertSilenceStore.ActiveAsync(connection, tx, now, ct);
        return new DecisionInputs(mark.Value, failoverList, active);
    }

    /// <summary>What an evaluation decides on; equal when the mark, every failover and every silence is.</summary>
    sealed record DecisionInputs(long Mark, IReadOnlyList<(long Id, TimelineChange Change)> Failovers, IReadOnlyList<AlertSilence> Silences)
    {
        public bool Equals(DecisionInputs? other) => other is not null && Mark == other.Mark
            && Failovers.SequenceEqual(other.Failovers) && Silences.SequenceEqual(other.Silences);

        public override int GetHashCode() => HashCode.Combine(Mark, Failovers.Count, Silences.Count);
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
