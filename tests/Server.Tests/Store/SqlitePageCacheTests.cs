using Dapper;

namespace IfiDashboard.Server.Tests.Store;

[Trait(TestDatabase.SqliteOnlyTrait, TestDatabase.SqliteOnlyValue)]
public sealed class SqlitePageCacheTests
{
    // Every pooled connection keeps its own page cache; at SQLite's default of 2 MB each, the ~33 connections of a
    // server with the embedded collector could hold 66 MB.
    [Fact]
    public async Task A_store_connection_keeps_a_page_cache_of_at_most_512_KiB()
    {
        await using var store = await TestStore.CreateMigratedAsync(StoreProvider.Sqlite);
        await using var connection = await store.OpenAsync();

        Assert.Equal(-512, await connection.ExecuteScalarAsync<long>("PRAGMA cache_size;"));
    }
}
