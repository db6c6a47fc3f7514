using Dapper;

namespace IfiDashboard.Server.Tests.Store.Retention;

/// <summary>
/// The pruner must know every table that points at a poll (it keeps such polls, or deletes the rows first), and each
/// such column needs an index: with foreign keys on, deleting a poll checks every referencing table.
/// </summary>
public sealed class PollReferencesTests
{
    /// <summary>Children deleted with their poll, then the references that keep a poll (PollHistoryPruner.Deletable).</summary>
    static readonly string[] KnownReferences =
    [
        "probe_outcomes.poll_id", "service_snapshots.poll_id",
        "instance_state.last_poll_id", "instance_state.last_good_poll_id", "ifi_changes.poll_id",
        "growth_events.first_poll_id", "database_files.seen_poll_id", "database_encryption.seen_poll_id",
        "database_backups.seen_poll_id",
    ];

    [Theory, StoreProviders]
    public async Task Every_reference_to_polls_is_known_to_the_pruner_and_indexed(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        await using var connection = await store.OpenAsync();
        var (references, unindexed) = store.Connections.Dialect.IsPostgres
            ? await PostgresReferencesAsync(connection)
            : await SqliteReferencesAsync(connection);

        Assert.Equal(KnownReferences.Order(StringComparer.Ordinal), references.Order(StringComparer.Ordinal));
        Assert.Empty(unindexed);
    }

    static async Task<(List<string> References, List<string> Unindexed)> SqliteReferencesAsync(System.Data.Common.DbConnection connection)
    {
        var tables = await connection.QueryAsync<string>("SELECT name FROM sqlite_master WHERE type = 'table';");
        var references = new List<string>();
        var unindexed = new List<string>();
        foreach (var table in tables)
        {
            var columns = await connection.QueryAsync<string>(
                "SELECT \"from\" FROM pragma_foreign_key_list(@table) WHERE \"table\" = 'polls';", new { table });
            foreach (var column in columns)
            {
                references.Add($"{table}.{column}");
                var leading = await connection.ExecuteScalarAsync<long>("""
                    SELECT COUNT(*) FROM pragma_index_list(@table) il, pragma_index_info(il.name) ii
                    WHERE ii.seqno = 0 AND ii.name = @column;
                    """, new { table, column });
                if (leading == 0) unindexed.Add($"{table}.{column}");
            }
        }
        return (references, unindexed);
    }

    /// <summary>The same from PostgreSQL's catalogue: foreign keys to polls, and indexes led by their column.</summary>
    static async Task<(List<string> References, List<string> Unindexed)> PostgresReferencesAsync(System.Data.Common.DbConnection connection)
    {
        var rows = await connection.QueryAsync<(string Table, string Column, long LeadingIndexes)>("""
            SELECT c.conrelid::regclass::text AS table_name, a.attname::text AS column_name,
                (SELECT COUNT(*) FROM pg_index i
                 WHERE i.indrelid = c.conrelid AND i.indkey[0] = a.attnum) AS leading_indexes
            FROM pg_constraint c
            JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
            WHERE c.contype = 'f' AND c.confrelid = 'polls'::regclass;
            """);
        var list = rows.ToList();
        return (list.Select(r => $"{r.Table}.{r.Column}").ToList(),
                list.Where(r => r.LeadingIndexes == 0).Select(r => $"{r.Table}.{r.Column}").ToList());
    }
}
