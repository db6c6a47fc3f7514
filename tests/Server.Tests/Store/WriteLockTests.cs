using Dapper;
using IfiDashboard.Store;
using Microsoft.Data.Sqlite;
using Npgsql;

namespace IfiDashboard.Server.Tests.Store;

public sealed class WriteLockTests
{
    // Leases, ingestion and migrations read then write inside one transaction; they are only safe if the
    // transaction holds the store's write lock from its start (BEGIN IMMEDIATE on SQLite, the advisory lock on
    // PostgreSQL), not from its first write.
    [Theory, StoreProviders]
    public async Task A_store_write_transaction_holds_the_write_lock_from_its_start(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        await using var first = await store.OpenAsync();
        await using var second = await ImpatientAsync(store);

        await using var held = await first.BeginWriteAsync(CancellationToken.None);

        var ex = await Record.ExceptionAsync(async () => await second.BeginWriteAsync(CancellationToken.None));
        if (store.Connections.Dialect.IsPostgres)
            Assert.Equal(PostgresErrorCodes.LockNotAvailable, Assert.IsType<PostgresException>(ex).SqlState);
        else
            Assert.Equal(5, Assert.IsType<SqliteException>(ex).SqliteErrorCode); // SQLITE_BUSY
    }

    /// <summary>A second connection that gives up at once instead of waiting out the store's lock wait.</summary>
    static async Task<System.Data.Common.DbConnection> ImpatientAsync(TestStore store)
    {
        var connection = await store.OpenAsync();
        if (store.Connections.Dialect.IsPostgres)
            await connection.ExecuteAsync("SET lock_timeout = '50ms';");
        else
        {
            await connection.ExecuteAsync("PRAGMA busy_timeout = 0;");
            ((SqliteConnection)connection).DefaultTimeout = 1;
        }
        return connection;
    }

    static async Task<bool> WaitsAsync(Func<Task> write)
    {
        var ex = await Record.ExceptionAsync(write);
        if (ex is null) return false;
        Assert.True(StoreBusy.IsBusy(ex), $"not a lock wait: {ex}");
        return true;
    }

    // A snapshot writes one instance's rows: on PostgreSQL it excludes that instance's writes and store-wide writes,
    // and no other instance's snapshot, so collectors ingest in parallel. SQLite has one writer, whatever it writes.
    [Theory, StoreProviders]
    public async Task An_instance_write_holds_off_its_own_instance_and_store_wide_writes_but_on_postgresql_not_other_instances(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        await using var first = await store.OpenAsync();
        await using var second = await ImpatientAsync(store);
        var postgres = store.Connections.Dialect.IsPostgres;

        await using (await first.BeginInstanceWriteAsync(1, CancellationToken.None))
        {
            Assert.True(await WaitsAsync(async () => await (await second.BeginInstanceWriteAsync(1, CancellationToken.None)).DisposeAsync()));
            Assert.True(await WaitsAsync(async () => await (await second.BeginWriteAsync(CancellationToken.None)).DisposeAsync()));
            Assert.Equal(!postgres, await WaitsAsync(async () => await (await second.BeginInstanceWriteAsync(2, CancellationToken.None)).DisposeAsync()));
        }
        await using (await first.BeginWriteAsync(CancellationToken.None))
            Assert.True(await WaitsAsync(async () => await (await second.BeginInstanceWriteAsync(2, CancellationToken.None)).DisposeAsync()));
    }

    // The changes feed reads IFI timeline rows by id. Two instances' snapshots written in parallel must not commit
    // those rows out of id order, or a reader's cursor passes a row that commits after it: the second writer of feed
    // rows waits for the first to commit (on SQLite it cannot even begin).
    [Theory, StoreProviders]
    public async Task Feed_rows_of_two_instances_written_in_parallel_commit_in_the_order_their_ids_are_drawn(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        await using var first = await store.OpenAsync();
        await using var second = await ImpatientAsync(store);

        await using var writing = await first.BeginInstanceWriteAsync(1, CancellationToken.None);
        await first.TakeFeedOrderAsync(writing, CancellationToken.None);

        if (store.Connections.Dialect.IsPostgres)
        {
            await using var other = await second.BeginInstanceWriteAsync(2, CancellationToken.None);
            Assert.True(await WaitsAsync(() => second.TakeFeedOrderAsync(other, CancellationToken.None)));
        }
        else
            Assert.True(await WaitsAsync(async () => await (await second.BeginInstanceWriteAsync(2, CancellationToken.None)).DisposeAsync()));
    }

    [Theory, StoreProviders]
    public async Task A_snapshot_is_stored_while_another_instances_snapshot_is_being_written(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var held = await store.Instances.AddAsync(TestData.Registration("SQLHELD01"), CancellationToken.None);
        var other = await store.Instances.AddAsync(TestData.Registration("SQLOTHER01"), CancellationToken.None);
        await using var first = await store.OpenAsync();
        // SQLite's one writer cannot hold one instance's write while another's goes through: nothing is held there.
        await using var holding = store.Connections.Dialect.IsPostgres ? await first.BeginInstanceWriteAsync(held, CancellationToken.None) : null;

        await store.Snapshots.WriteAsync(TestData.Good(other, TestStore.Start), CancellationToken.None);

        await using var reader = await store.OpenAsync();
        Assert.Equal(1L, await reader.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM polls WHERE instance_id = @other;", new { other }));
    }

    // Every poll ends with a lease completion: a store-wide write there made several collectors' completions, and the
    // snapshots behind them, queue on one lock.
    [Theory, StoreProviders]
    public async Task A_lease_is_completed_while_another_instances_snapshot_is_being_written(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var held = await store.Instances.AddAsync(TestData.Registration("SQLHELD01"), CancellationToken.None);
        var other = await store.Instances.AddAsync(TestData.Registration("SQLOTHER01"), CancellationToken.None);
        var source = store.NewSource();
        await source.LeaseDueAsync("collector-a", 2, TimeSpan.FromMinutes(2), CancellationToken.None);
        await using var first = await store.OpenAsync();
        await using var holding = store.Connections.Dialect.IsPostgres ? await first.BeginInstanceWriteAsync(held, CancellationToken.None) : null;

        var nextPollAt = store.Clock.GetUtcNow().AddMinutes(5);
        await source.CompleteAsync(other, "collector-a", nextPollAt, CancellationToken.None);

        await using var reader = await store.OpenAsync();
        Assert.Null(await reader.ExecuteScalarAsync<string?>("SELECT lease_owner FROM instances WHERE id = @other;", new { other }));
        Assert.Equal("collector-a", await reader.ExecuteScalarAsync<string?>("SELECT lease_owner FROM instances WHERE id = @held;", new { held }));
    }
}
