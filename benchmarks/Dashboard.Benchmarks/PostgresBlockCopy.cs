using System.Diagnostics;
using Dapper;
using Npgsql;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>
/// The bulk path for fleets the real write path would take hours to seed here (<c>--seed-block N</c>, PostgreSQL
/// only): a block of N instances with its share of the events is seeded through the real path
/// (<see cref="StoreSeeder"/>) into a database of its own, copied whole (<c>CREATE DATABASE ... TEMPLATE</c>), and its
/// rows are copied again inside the copy, once per further block, by <c>INSERT ... SELECT</c> with every id shifted
/// past the block's largest (instances, polls, probe outcomes, service rows, growth events, IFI changes, journal
/// rows, waivers) and the instance number in each name and host moved on by the block size (<c>prd-sql00042</c>
/// becomes <c>prd-sql10042</c> in the second block). Each copy is the block's instances with the same histories,
/// times and policy, so the fleet's mix is the block's; what is not copied: the audit log of the registrations.
/// </summary>
internal static class PostgresBlockCopy
{
    /// <summary>Tables copied, parents before children; every other table holds nothing a seeded store needs per instance.</summary>
    static readonly string[] Tables =
    [
        "instances", "polls", "probe_outcomes", "service_snapshots", "instance_state", "ifi_changes", "database_files",
        "database_encryption", "database_backups", "growth_events", "waivers", "change_journal", "daily_compliance",
        "alert_baselines",
    ];

    /// <summary>Tables whose own id is copied shifted (an identity column).</summary>
    static readonly string[] OwnIds =
        ["instances", "polls", "probe_outcomes", "service_snapshots", "ifi_changes", "growth_events", "waivers", "change_journal"];

    static readonly string[] PollReferences = ["poll_id", "seen_poll_id", "first_poll_id", "last_poll_id", "last_good_poll_id"];

    public static async Task<TimeSpan> BuildAsync(BenchmarkOptions options, PostgresBenchmarkStore target, int block)
    {
        if (options.Instances % block != 0)
            throw new ArgumentException($"--seed-block {block} must divide --instances {options.Instances}.");
        var clock = Stopwatch.StartNew();
        var blockStore = target.Sibling($"block{block}");
        if (!await blockStore.IsSeededAsync())
        {
            var share = options with { Instances = block, Events = (int)((long)options.Events * block / options.Instances) };
            Console.WriteLine($"seeding the block {blockStore.Description} ({share.Instances} instances, {share.Events} events) through the real path ...");
            await new StoreSeeder(share, blockStore).BuildAsync(CancellationToken.None);
        }
        Console.WriteLine($"copying {blockStore.Description} to {target.Description} ({clock.Elapsed.TotalSeconds:F0} s)");
        await target.DeleteAsync();
        await target.CreateFromAsync(blockStore);

        await using var connection = await target.OpenReadOnlyAsync();
        var strides = new Dictionary<string, long>();
        foreach (var table in OwnIds)
            strides[table] = await connection.ExecuteScalarAsync<long>($"SELECT COALESCE(MAX(id), 0) FROM {table};");
        var columns = (await connection.QueryAsync<(string Table, string Column)>(
                "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' ORDER BY ordinal_position;"))
            .ToLookup(c => c.Table, c => c.Column);
        for (var copy = 1; copy < options.Instances / block; copy++)
        {
            await using var tx = await connection.BeginTransactionAsync();
            foreach (var table in Tables)
            {
                var names = columns[table].ToList();
                var sql = $"""
                    INSERT INTO {table} ({string.Join(", ", names)})
                    SELECT {string.Join(", ", names.Select(c => Shifted(table, c, copy, block, strides)))}
                    FROM {table} WHERE {Original(table, names, strides)};
                    """;
                await connection.ExecuteAsync(sql, transaction: tx, commandTimeout: 3600);
            }
            await tx.CommitAsync();
            Console.WriteLine($"  block {copy + 1} of {options.Instances / block} copied ({clock.Elapsed.TotalSeconds:F0} s)");
        }
        foreach (var table in OwnIds)
            await connection.ExecuteAsync($"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT MAX(id) FROM {table}));");
        await target.SettleAsync($"{options.Instances} instances, {options.Events} growth events, {options.Days} days, seed {options.Seed}, " +
                                 $"blocks of {block} copied");
        return clock.Elapsed;
    }

    /// <summary>The block's own rows: those of its instances or polls (ids up to the block's largest).</summary>
    static string Original(string table, IReadOnlyList<string> columns, Dictionary<string, long> strides) =>
        table == "instances" ? $"id <= {strides["instances"]}"
        : columns.Contains("instance_id") ? $"instance_id <= {strides["instances"]}"
        : $"poll_id <= {strides["polls"]}";

    static string Shifted(string table, string column, int copy, int block, Dictionary<string, long> strides)
    {
        if (column == "id" && OwnIds.Contains(table)) return $"id + {copy * strides[table]}";
        if (column == "instance_id") return $"instance_id + {copy * strides["instances"]}";
        if (PollReferences.Contains(column)) return $"{column} + {copy * strides["polls"]}";
        if (table == "polls" && column == "snapshot_id") return $"md5(snapshot_id || '/{copy}')::uuid::text";
        // The synthetic instance's number sits after "-sql" in its name and host (SyntheticFleet).
        if (table == "instances" && column is "name" or "host")
            return $"regexp_replace({column}, '-sql\\d+', '-sql' || lpad(((substring({column} from '-sql(\\d+)'))::int + {copy * block})::text, 5, '0'))";
        return column;
    }
}
