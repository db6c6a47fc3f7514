using Dapper;

namespace IfiDashboard.Server.Store.Changes;

/// <summary>
/// The append-only journal behind the changes feed: compliance status transitions and inventory changes, recorded
/// by comparing what is observed now with what the journal last recorded for each instance. Each recording runs in
/// one write transaction (the store's write lock), so two recorders, in one process or two, never record a change twice.
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
        var recordedAt = StoreTime.ToText(time.GetUtcNow());
        var entries = observations
            .Where(o => !last.TryGetValue(o.InstanceId, out var previous) || previous != o.Status)
            .OrderBy(o => o.InstanceId)
            .Select(o => new
            {
                instanceId = o.InstanceId,
                status = o.Status,
                occurredAt = StoreTime.ToText(assessedAt),
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
    /// Records the inventory changes the journal has not seen: an instance it never recorded is "created" (and
    /// "retired" too when it already is), a higher <c>instances.version</c> is "updated", or "retired" once the
    /// instance is. Versions between two catch-ups collapse into one entry: the feed says what changed, not how often.
    /// </summary>
    public async Task<int> CatchUpInventoryAsync(CancellationToken ct)
    {
        const string pendingSql = """
            SELECT i.id AS Id, i.version AS Version, i.created_at AS CreatedAt,
                COALESCE(i.updated_at, i.created_at) AS UpdatedAt, i.retired_at AS RetiredAt,
                r.recorded_version AS RecordedVersion, r.recorded_retired AS RecordedRetired
            FROM instances i
            LEFT JOIN (
                SELECT instance_id, MAX(version) AS recorded_version, MAX(CASE WHEN change = 'retired' THEN 1 ELSE 0 END) AS recorded_retired
                FROM change_journal WHERE kind = 'inventory' GROUP BY instance_id) r ON r.instance_id = i.id
            WHERE r.recorded_version IS NULL OR r.recorded_version < i.version
            ORDER BY i.id;
            """;
        const string insertSql = """
            INSERT INTO change_journal (kind, instance_id, change, occurred_at, recorded_at, version)
            VALUES ('inventory', @instanceId, @change, @occurredAt, @recordedAt, @version)
            ON CONFLICT DO NOTHING;
            """;
        await using var connection = await connections.OpenAsync(ct);
        await using var tx = await connection.BeginWriteAsync(ct);
        var pending = await connection.QueryAsync<PendingInventoryRow>(new CommandDefinition(pendingSql, transaction: tx, cancellationToken: ct));
        var recordedAt = StoreTime.ToText(time.GetUtcNow());
        var entries = pending.SelectMany(p => p.Changes())
            .Select(c => new { c.instanceId, c.change, c.occurredAt, recordedAt, c.version })
            .ToList();
        var written = entries.Count == 0 ? 0
            : await connection.ExecuteAsync(new CommandDefinition(insertSql, entries, tx, cancellationToken: ct));
        await tx.CommitAsync(ct);
        return written;
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
                c.old_value AS OldValue, c.new_value AS NewValue, i.name AS InstanceName, i.external_key AS ExternalKey
            FROM ifi_changes c
            JOIN instances i ON i.id = c.instance_id
            WHERE c.id > @afterId
            ORDER BY c.id
            LIMIT @limit;
            """;
        await using var connection = await connections.OpenAsync(ct);
        return (await connection.QueryAsync<TimelineRow>(new CommandDefinition(sql, new { afterId, limit }, cancellationToken: ct))).ToList();
    }

    sealed class PendingInventoryRow
    {
        public long Id { get; init; }
        public long Version { get; init; }
        public string CreatedAt { get; init; } = "";
        public string UpdatedAt { get; init; } = "";
        public string? RetiredAt { get; init; }
        public long? RecordedVersion { get; init; }
        public long? RecordedRetired { get; init; }

        public IEnumerable<(long instanceId, string change, string occurredAt, long version)> Changes()
        {
            if (RecordedVersion is null)
                yield return (Id, InventoryChanges.Created, CreatedAt, Version);
            if (RetiredAt is not null)
            {
                // A retired row does not change again (a later PUT registers a new row), so one entry says it all.
                if (RecordedRetired is not 1)
                    yield return (Id, InventoryChanges.Retired, RetiredAt, Version);
            }
            else if (RecordedVersion is not null)
                yield return (Id, InventoryChanges.Updated, UpdatedAt, Version);
        }
    }
}
