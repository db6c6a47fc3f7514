using Dapper;
using Microsoft.Data.Sqlite;

namespace IfiDashboard.Server.Tests.Store;

public sealed class WriteLockTests
{
    // Leases, ingestion and migrations read then write inside one transaction; they are only safe if the
    // transaction holds the write lock from BEGIN (BEGIN IMMEDIATE), not from its first write.
    [Fact]
    public async Task A_store_transaction_holds_the_write_lock_from_its_start()
    {
        await using var store = await TestStore.CreateMigratedAsync();
        await using var first = await store.OpenAsync();
        await using var second = await store.OpenAsync();
        await second.ExecuteAsync("PRAGMA busy_timeout = 0;");
        ((SqliteConnection)second).DefaultTimeout = 1;

        await using var held = await first.BeginTransactionAsync();

        var ex = await Assert.ThrowsAsync<SqliteException>(async () => await second.BeginTransactionAsync());
        Assert.Equal(5, ex.SqliteErrorCode); // SQLITE_BUSY
    }
}
