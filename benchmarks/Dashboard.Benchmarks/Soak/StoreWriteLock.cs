using Microsoft.Data.Sqlite;

namespace IfiDashboard.Dashboard.Benchmarks.Soak;

/// <summary>
/// The SQLite store's write lock held as a long transaction elsewhere would hold it (a backup tool, an operator's
/// session): a second connection in BEGIN IMMEDIATE, rolled back on release. Readers go on (WAL); every writer waits its
/// busy timeout and then has to answer busy: the API with 503 and Retry-After, the embedded collector by retrying the poll.
/// </summary>
internal sealed class StoreWriteLock : IAsyncDisposable
{
    readonly SqliteConnection _connection;

    StoreWriteLock(SqliteConnection connection) => _connection = connection;

    public static async Task<StoreWriteLock> TakeAsync(string store)
    {
        var connection = new SqliteConnection($"Data Source={store};Pooling=False");
        await connection.OpenAsync();
        // Our own wait for the lock: a write in progress finishes first, as it would for any other writer.
        await ExecuteAsync(connection, "PRAGMA busy_timeout = 60000;");
        await ExecuteAsync(connection, "BEGIN IMMEDIATE;");
        return new StoreWriteLock(connection);
    }

    static async Task ExecuteAsync(SqliteConnection connection, string sql)
    {
        await using var command = connection.CreateCommand();
        command.CommandText = sql;
        await command.ExecuteNonQueryAsync();
    }

    public async ValueTask DisposeAsync()
    {
        await ExecuteAsync(_connection, "ROLLBACK;");
        await _connection.DisposeAsync();
    }
}
