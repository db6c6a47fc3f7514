using System.Data.Common;
using Dapper;
using IfiDashboard.Store;
using Microsoft.Data.Sqlite;
using Npgsql;

namespace IfiDashboard.Server.Tests.Store;

/// <summary>
/// The store's write lock held from a connection of its own, as another process would (a backup tool, a migration, a
/// long transaction), until disposed.
/// </summary>
internal sealed class HeldWriteLock(DbConnection connection, DbTransaction transaction) : IAsyncDisposable
{
    public static async Task<HeldWriteLock> TakeAsync(TestDatabase store)
    {
        DbConnection connection = store.Dialect.IsPostgres
            ? new NpgsqlConnection(store.ConnectionString)
            : new SqliteConnection(new SqliteConnectionStringBuilder(store.ConnectionString) { Pooling = false }.ConnectionString);
        await connection.OpenAsync();
        var transaction = await connection.BeginTransactionAsync();
        if (connection is NpgsqlConnection)
        {
            // The store's write lock, and every table locked against writes (reads go on), as SQLite's RESERVED lock does.
            await connection.ExecuteAsync("SELECT pg_advisory_xact_lock(@key);", new { key = WriteTransactions.StoreWriteLockKey }, transaction);
            var tables = await connection.QueryAsync<string>("SELECT tablename FROM pg_tables WHERE schemaname = 'public';", transaction: transaction);
            await connection.ExecuteAsync($"LOCK TABLE {string.Join(", ", tables)} IN EXCLUSIVE MODE;", transaction: transaction);
        }
        else // a write takes SQLite's RESERVED lock, which every other writer then waits for
            await connection.ExecuteAsync("CREATE TABLE IF NOT EXISTS busy_marker (x INTEGER); INSERT INTO busy_marker VALUES (1);", transaction: transaction);
        return new HeldWriteLock(connection, transaction);
    }

    public async ValueTask DisposeAsync()
    {
        await transaction.RollbackAsync();
        await connection.DisposeAsync();
    }
}
