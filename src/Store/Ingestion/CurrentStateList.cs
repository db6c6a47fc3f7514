using System.Data.Common;

namespace IfiDashboard.Store.Ingestion;

/// <summary>
/// One of an instance's current-state tables (files, TDE, backups), keyed by <c>instance_id</c> and
/// <paramref name="keys"/>, as the latest poll that read it saw it. The poll's rows are compared with the stored ones
/// and only the differences are written, in one statement each (upsert, delete): most polls see what the previous one
/// saw and write nothing. A row's <c>seen_poll_id</c> is therefore the poll that last changed it, which retention keeps.
/// </summary>
/// <param name="keys">The key columns after <c>instance_id</c>; each row starts with them, then <paramref name="values"/>.</param>
internal sealed class CurrentStateList(string table, IReadOnlyList<(string Name, StoreColumn Type)> keys,
    IReadOnlyList<(string Name, StoreColumn Type)> values)
{
    readonly StoreColumn[] _upsertTypes =
        [StoreColumn.Integer, .. keys.Select(k => k.Type), .. values.Select(v => v.Type), StoreColumn.Integer];
    readonly StoreColumn[] _keyTypes = [StoreColumn.Integer, .. keys.Select(k => k.Type)];

    readonly string _select = $"SELECT {string.Join(", ", keys.Concat(values).Select(c => c.Name))} FROM {table} WHERE instance_id = @instanceId;";

    readonly string _upsert = $"""
        INSERT INTO {table} (instance_id, {string.Join(", ", keys.Concat(values).Select(c => c.Name))}, seen_poll_id)
        {"{rows}"}
        ON CONFLICT (instance_id, {string.Join(", ", keys.Select(k => k.Name))}) DO UPDATE SET
            {string.Join(", ", values.Select(v => $"{v.Name} = excluded.{v.Name}"))}, seen_poll_id = excluded.seen_poll_id;
        """;

    readonly string _delete = $"""
        DELETE FROM {table} WHERE (instance_id, {string.Join(", ", keys.Select(k => k.Name))}) IN ({"{rows}"});
        """;

    /// <summary>Adds the read of the instance's stored rows to <paramref name="reads"/>; compare after it ran.</summary>
    public StoredRows AddRead(StatementBatch reads, long instanceId)
    {
        var stored = new StoredRows(new Dictionary<object?[], object?[]>(new KeyComparer(keys.Count)));
        reads.Add(_select, stored.ReadAsync, ("instanceId", instanceId));
        return stored;
    }

    /// <summary>Adds the upsert of what changed and the delete of what is gone, each one statement, to <paramref name="writes"/>.</summary>
    /// <param name="rows">The poll's rows: key values then the other values, each a long, a string or null.</param>
    public void AddWrites(StatementBatch writes, SqlDialect dialect, StoredRows read, long instanceId, long pollId,
        IEnumerable<object?[]> rows)
    {
        var stored = read.Rows;
        var seen = new Dictionary<object?[], object?[]>(new KeyComparer(keys.Count));
        foreach (var row in rows)
            seen[row] = row;

        var changed = seen.Values
            .Where(row => !stored.TryGetValue(row, out var before) || !row.AsSpan(keys.Count).SequenceEqual(before.AsSpan(keys.Count)))
            .Select(row => Row(instanceId, row, row.Length, pollId))
            .ToList();
        var removed = stored.Keys
            .Where(key => !seen.ContainsKey(key))
            .Select(key => Row(instanceId, key, keys.Count))
            .ToList();
        writes.AddRows(dialect, _delete, _keyTypes, removed);
        writes.AddRows(dialect, _upsert, _upsertTypes, changed);
    }

    /// <summary>instance_id, the first <paramref name="count"/> values of <paramref name="row"/>, then <paramref name="pollId"/> if given.</summary>
    static object?[] Row(long instanceId, object?[] row, int count, long? pollId = null)
    {
        var values = new object?[1 + count + (pollId is null ? 0 : 1)];
        values[0] = instanceId;
        Array.Copy(row, 0, values, 1, count);
        if (pollId is { } id)
            values[^1] = id;
        return values;
    }

    /// <summary>The stored rows by key, filled when the batch they were read in has run.</summary>
    internal sealed class StoredRows(Dictionary<object?[], object?[]> rows)
    {
        public Dictionary<object?[], object?[]> Rows => rows;

        public async Task ReadAsync(DbDataReader reader, CancellationToken ct)
        {
            while (await reader.ReadAsync(ct))
            {
                var row = new object?[reader.FieldCount];
                for (var i = 0; i < row.Length; i++)
                    row[i] = reader.IsDBNull(i) ? null : reader.GetValue(i);
                rows[row] = row;
            }
        }
    }

    /// <summary>Rows compared by their first <paramref name="count"/> values, the key.</summary>
    sealed class KeyComparer(int count) : IEqualityComparer<object?[]>
    {
        public bool Equals(object?[]? x, object?[]? y) => x is not null && y is not null && x.AsSpan(0, count).SequenceEqual(y.AsSpan(0, count));

        public int GetHashCode(object?[] row)
        {
            var hash = new HashCode();
            for (var i = 0; i < count; i++)
                hash.Add(row[i]);
            return hash.ToHashCode();
        }
    }
}
