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

    /// <param name="rows">The poll's rows: key values then the other values, each a long, a string or null.</param>
    public async Task WriteAsync(DbConnection connection, DbTransaction tx, SqlDialect dialect, long instanceId, long pollId,
        IEnumerable<object?[]> rows, CancellationToken ct)
    {
        var stored = await StoredAsync(connection, tx, instanceId, ct);
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
        await connection.ExecuteAsync(tx, dialect, _delete, _keyTypes, removed, ct);
        await connection.ExecuteAsync(tx, dialect, _upsert, _upsertTypes, changed, ct);
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

    async Task<Dictionary<object?[], object?[]>> StoredAsync(DbConnection connection, DbTransaction tx, long instanceId,
        CancellationToken ct)
    {
        await using var command = connection.CreateCommand();
        command.Transaction = tx;
        command.CommandText = _select;
        var parameter = command.CreateParameter();
        parameter.ParameterName = "instanceId";
        parameter.Value = instanceId;
        command.Parameters.Add(parameter);
        var stored = new Dictionary<object?[], object?[]>(new KeyComparer(keys.Count));
        await using var reader = await command.ExecuteReaderAsync(ct);
        while (await reader.ReadAsync(ct))
        {
            var row = new object?[reader.FieldCount];
            for (var i = 0; i < row.Length; i++)
                row[i] = reader.IsDBNull(i) ? null : reader.GetValue(i);
            stored[row] = row;
        }
        return stored;
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
