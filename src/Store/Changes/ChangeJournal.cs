using Dapper;

namespace IfiDashboard.Store.Changes;

/// <summary>
/// The append-only journal behind the changes feed: compliance status transitions, recorded by comparing each
/// assessment with what the journal last recorded for each instance (in one write transaction, so two recorders, in
/// one process or two, never record a change twice), and inventory changes, journaled by the writes that make them.
/// </summary>
public sealed class ChangeJournal(IDbConnectionFactory connections, TimeProvider time)
{
    /// <summary>Records an entry for each instance whose status differs from its last recorded one, or that is new.</summary>
    /// <returns>How many entries were recorded.</returns>
    public async Task<int> RecordStatusesAsync(IReadOnlyList<StatusObservation> observations, DateTimeOffset assessedAt,
        CancellationToken ct)
    {
        const string lastSql = """
            SELECT instance_id AS InstanceId, change AS Status
            FROM change_journal
            WHERE id IN (SELECT MAX(id) FROM change_journal WHERE kind = 'status' GROUP BY instance_id);
            """;
        const string insertSql = """
            INSERT INTO change_journal (kind, instance_id, change, occurred_at, recorded_at, old_value, new_value, detail)
            SELECT 'status', @instanceId, @status, @occurredAt, @recordedAt, @oldValue, @status, @detail
            WHERE EXISTS (SELECT 1 FROM instances WHERE id = @instanceId);
            """;
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        var last = (await connection.QueryAsync<(long InstanceId, string Status)>(new CommandDefinition(lastSql, transaction: tx, cancellationToken: ct)))
            .ToDictionary(r => r.InstanceId, r => r.Status);
        var recordedAt = time.GetUtcNow();
        var entries = observations
            .Where(o => !last.TryGetValue(o.InstanceId, out var previous) || previous != o.Status)
            .OrderBy(o => o.InstanceId)
            .Select(o => new
            {
                instanceId = o.InstanceId,
                status = o.Status,
                occurredAt = assessedAt,
                recordedAt,
                oldValue = last.GetValueOrDefault(o.InstanceId),
                detail = o.Explanation,
            })
            .ToList();
        if (entries.Count > 0)
            await connection.ExecuteAsync(new CommandDefinition(insertSql, entries, tx, cancellationToken: ct));
        await tx.CommitAsync(ct);
        return entries.Count;
    }

    /// <summary>
    /// Journals an inventory change inside the transaction that made it (every inventory write calls this through
    /// <see cref="Inventory.InventoryChangeRecord"/>), at the instance's version after the change: the feed reads what
    /// the writers journaled and compares nothing when it is read.
    /// </summary>
    internal static Task AppendInventoryAsync(System.Data.Common.DbConnection connection, System.Data.Common.DbTransaction tx,
        long instanceId, string change, DateTimeOffset occurredAt, CancellationToken ct)
    {
        const string sql = """
            INSERT INTO change_journal (kind, instance_id, change, occurred_at, recorded_at, version)
            SELECT 'inventory', id, @change, @occurredAt, @occurredAt, version FROM instances WHERE id = @instanceId
            ON CONFLICT DO NOTHING;
            """;
        return connection.ExecuteAsync(new CommandDefinition(sql,
            new { instanceId, change, occurredAt }, tx, cancellationToken: ct));
    }

    /// <summary><see cref="AppendInventoryAsync"/> for the instances with ids <paramref name="firstId"/> to
    /// <paramref name="lastId"/> in one statement, journaled in id order.</summary>
    internal static Task AppendInventoryManyAsync(System.Data.Common.DbConnection connection, System.Data.Common.DbTransaction tx,
        long firstId, long lastId, string change, DateTimeOffset occurredAt, CancellationToken ct)
    {
        const string sql = """
            INSERT INTO change_journal (kind, instance_id, change, occurred_at, recorded_at, version)
            SELECT 'inventory', id, @change, @occurredAt, @occurredAt, version FROM instances WHERE id BETWEEN @firstId AND @lastId ORDER BY id
            ON CONFLICT DO NOTHING;
            """;
        return connection.ExecuteAsync(new CommandDefinition(sql,
            new { firstId, lastId, change, occurredAt }, tx, cancellationToken: ct));
    }

    /// <summary>Up to <paramref name="limit"/> journal rows after <paramref name="afterId"/>, in id order.</summary>
    public async Task<IReadOnlyList<JournalRow>> ReadJournalAsync(long afterId, int limit, CancellationToken ct)
    {
        const string sql = """
            SELECT j.id AS Id, j.kind AS Kind, j.instance_id AS InstanceId, j.change AS Change, j.occurred_at AS OccurredAt,
                j.old_value AS OldValue, j.new_value AS NewValue, j.version AS Version, j.detail AS Detail,
                i.name AS InstanceName, i.external_key AS ExternalKey
            FROM change_journal j
            JOIN instances i ON i.id = j.instance_id
            WHERE j.id > @afterId
            ORDER BY j.id
            LIMIT @limit;
            """;
        await using var connection = await connections.OpenAsync(ct);
        return (await connection.QueryAsync<JournalRow>(new CommandDefinition(sql, new { afterId, limit }, cancellationToken: ct))).ToList();
    }

    /// <summary>Up to <paramref name="limit"/> IFI timeline rows (<c>ifi_changes</c>) after <paramref name="afterId"/>, in id order.</summary>
    public async Task<IReadOnlyList<TimelineRow>> ReadTimelineAsync(long afterId, int limit, CancellationToken ct)
    {
        const string sql = """
            SELECT c.id AS Id, c.instance_id AS InstanceId, c.field AS Field, c.changed_at AS ChangedAt,
                c.old_value AS OldValue, c.new_value AS NewValue, i.name AS InstanceName, i.external_key AS ExternalKey,
                c.doubt AS Doubt
            FROM ifi_changes c
            JOIN instances i ON i.id = c.instance_id
            WHERE c.id > @afterId
            ORDER BY c.id
            LIMIT @limit;
            """;
        await using var connection = await connections.OpenAsync(ct);
        return (await connection.QueryAsync<TimelineRow>(new CommandDefinition(sql, new { afterId, limit }, cancellationToken: ct))).ToList();
    }
}
