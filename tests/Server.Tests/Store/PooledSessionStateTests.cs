using Dapper;
using IfiDashboard.Store;
using IfiDashboard.Store.Collectors;
using IfiDashboard.Store.Dashboard;
using IfiDashboard.Store.Ingestion;
using IfiDashboard.Store.Inventory;
using Npgsql;

namespace IfiDashboard.Server.Tests.Store;

/// <summary>
/// The PostgreSQL store hands its pooled connections on without Npgsql's reset (seven statements at every use), which
/// is only safe while nothing the store runs leaves session state behind: a SET, a temporary table, a session lock,
/// a LISTEN, a cursor or a statement prepared by name would reach the next user of the connection.
/// </summary>
public sealed class PooledSessionStateTests
{
    static readonly CancellationToken None = CancellationToken.None;

    [Fact]
    public async Task Pooled_connections_are_not_reset_unless_the_administrator_says_otherwise()
    {
        await using var unset = Factory("Host=db.example.test;Username=ifi;Database=ifi");
        await using var reset = Factory("Host=db.example.test;Username=ifi;Database=ifi;No Reset On Close=false");

        Assert.True(new NpgsqlConnectionStringBuilder(unset.DataSource.ConnectionString).NoResetOnClose);
        Assert.False(new NpgsqlConnectionStringBuilder(reset.DataSource.ConnectionString).NoResetOnClose);
    }

    [Theory, StoreProviders]
    public async Task The_ingestion_path_leaves_no_session_state_on_its_pooled_connections(StoreProvider provider)
    {
        // SQLite has no server session: what its factory sets on a connection it sets at every open.
        if (provider == StoreProvider.Sqlite)
            return;
        await using var store = await TestStore.CreateMigratedAsync(provider);
        // A few connections at most, so that the probe below sees every connection the work used.
        var pooled = new NpgsqlConnectionStringBuilder(store.Database.ConnectionString) { Pooling = true, MaxPoolSize = PoolSize }.ConnectionString;
        // The probe sees what is left behind: on a pool of its own, thrown away with what it holds.
        await using (var selfCheck = Factory(pooled))
            Assert.Equal(["search_path", "statement_timeout", "temporary table", "advisory lock", "listen", "cursor", "prepared statement"],
                await LeftBehindAfterAsync(selfCheck, async () =>
                {
                    await using var connection = await selfCheck.OpenAsync(None);
                    await connection.ExecuteAsync("""
                    SET search_path = public; SET statement_timeout = 1234; CREATE TEMP TABLE left_behind (x int);
                    SELECT pg_advisory_lock(42); LISTEN left_behind;
                    DECLARE left_behind CURSOR WITH HOLD FOR SELECT 1; PREPARE left_behind AS SELECT 1;
                    """);
                }));
        await using var connections = Factory(pooled);

        var instance = await store.Instances.AddAsync(TestData.Registration("SQLPOOL01"), None);
        var source = new StoreInstanceSource(connections, store.Clock, store.Audit);
        var snapshots = new SnapshotStore(connections);
        var collectors = new CollectorStore(connections, store.Clock);

        Assert.Empty(await LeftBehindAfterAsync(connections, async () =>
        {
            await source.LeaseDueAsync("collector-a", 10, TimeSpan.FromMinutes(2), None);
            Assert.True(await snapshots.WriteAsync(TestData.Good(instance, store.Clock.GetUtcNow()), "collector-a", None));
            await source.CompleteAsync(instance, "collector-a", store.Clock.GetUtcNow().AddMinutes(5), None);
            await collectors.HeardDeliveringAsync("collector-a", TimeSpan.FromMinutes(2), None);
            await using var reader = await connections.OpenAsync(None);
            await using var view = await reader.BeginReadSnapshotAsync(None);
            await new FleetReader(connections).CountsAsync(None);
        }));
    }

    static PostgresConnectionFactory Factory(string connectionString) => new(Microsoft.Extensions.Options.Options.Create(
        new StoreOptions { Provider = StoreOptions.PostgresProvider, ConnectionString = connectionString }));

    const int PoolSize = 3;

    /// <summary>Runs <paramref name="work"/> on the pool, then names what any of the pool's connections still holds.</summary>
    static async Task<IReadOnlyList<string>> LeftBehindAfterAsync(PostgresConnectionFactory connections, Func<Task> work)
    {
        await work();
        const string probe = """
            SELECT name FROM pg_settings WHERE source = 'session'
            UNION ALL SELECT 'temporary table' FROM pg_class WHERE relpersistence = 't'
                AND relnamespace = pg_my_temp_schema() AND relkind = 'r'
            UNION ALL SELECT 'advisory lock' FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()
            UNION ALL SELECT 'listen' FROM pg_listening_channels()
            UNION ALL SELECT 'cursor' FROM pg_cursors WHERE name <> '' -- '': this query's own portal
            UNION ALL SELECT 'prepared statement' FROM pg_prepared_statements WHERE from_sql
            UNION ALL SELECT 'session authorization' WHERE current_user <> session_user;
            """;
        // Every connection of the pool at once, so that each is probed.
        var pool = new List<System.Data.Common.DbConnection>();
        try
        {
            var left = new List<string>();
            for (var i = 0; i < PoolSize; i++)
            {
                pool.Add(await connections.OpenAsync(None));
                left.AddRange(await pool[^1].QueryAsync<string>(probe));
            }
            return left;
        }
        finally
        {
            foreach (var connection in pool)
                await connection.DisposeAsync();
        }
    }
}
