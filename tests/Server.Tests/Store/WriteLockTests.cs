using Dapper;
using IfiDashboard.Server.Store;
using Microsoft.Data.Sqlite;
using Npgsql;

namespace IfiDashboard.Server.Tests.Store;

public sealed class WriteLockTests
{
    // Leases, ingestion and migrations read then write inside one transaction; they are only safe if the
    // transaction holds the store's write lock from its start (BEGIN IMMEDIATE on SQLite, the advisory lock on
    // PostgreSQL), not from its first write.
    [Fact]
    public async Task A_store_write_transaction_holds_the_write_lock_from_its_start()
    {
        await using var store = await TestStore.CreateMigratedAsync();
        await using var first = await store.OpenAsync();
        await using var second = await store.OpenAsync();
        if (store.Connections.Dialect.IsPostgres)
            await second.ExecuteAsync("SET lock_timeout = '50ms';");
        else
        {
            await second.ExecuteAsync("PRAGMA busy_timeout = 0;");
            ((SqliteConnection)second).DefaultTimeout = 1;
        }

        await using var held = await first.BeginWriteAsync(CancellationToken.None);

        var ex = await Record.ExceptionAsync(async () => await second.BeginWriteAsync(CancellationToken.None));
        if (store.Connections.Dialect.IsPostgres)
            Assert.Equal(PostgresErrorCodes.LockNotAvailable, Assert.IsType<PostgresException>(ex).SqlState);
        else
            Assert.Equal(5, Assert.IsType<SqliteException>(ex).SqliteErrorCode); // SQLITE_BUSY
    }
}
