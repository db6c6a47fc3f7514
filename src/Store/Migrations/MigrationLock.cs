using System.Data.Common;
using Dapper;
using Microsoft.Data.Sqlite;
using Npgsql;

namespace IfiDashboard.Store.Migrations;

/// <summary>
/// Held while the store migrates, so that servers starting together on one store migrate it once: the second waits,
/// then finds every script journaled. DbUp reads the journal before it runs the scripts, in transactions of their
/// own, so the per-script transactions alone would let two servers both run a script. Both locks end with the
/// process that holds them, so a server that dies while migrating leaves none behind.
/// </summary>
static class MigrationLock
{
    /// <summary>A session-level advisory lock, apart from the write lock's key (<see cref="WriteTransactions"/>).</summary>
    internal const long PostgresKey = 0x1F1_DB0B;

    /// <summary>
    /// Both locks are tried again after this pause rather than waited on in the database: a first migration may take
    /// longer than the store's lock timeout (<see cref="StoreBusy.LockWait"/>), which a blocking
    /// <c>pg_advisory_lock</c> would be held to.
    /// </summary>
    static readonly TimeSpan RetryPause = TimeSpan.FromMilliseconds(100);

    internal const string WaitingMessage = "Another process is migrating the store; waiting for it to finish";

    /// <param name="connection">Holds the PostgreSQL lock; on SQLite, names the database file to lock beside.</param>
    public static Task<IAsyncDisposable> AcquireAsync(DbConnection connection, ILogger logger, CancellationToken ct) =>
        connection switch
        {
            NpgsqlConnection postgres => WaitForAsync(() => TryAdvisoryLockAsync(postgres, ct), logger, ct),
            SqliteConnection { DataSource: { Length: > 0 } file } =>
                WaitForAsync(() => Task.FromResult(TryFileLock(file + ".migration-lock")), logger, ct),
            // An in-memory SQLite database belongs to one connection: nobody else can migrate it.
            _ => Task.FromResult<IAsyncDisposable>(new NoLock()),
        };

    static async Task<IAsyncDisposable> WaitForAsync(Func<Task<IAsyncDisposable?>> tryLock, ILogger logger, CancellationToken ct)
    {
        var waiting = false;
        while (true)
        {
            if (await tryLock() is { } acquired)
                return acquired;
            if (!waiting)
                logger.LogInformation(WaitingMessage);
            waiting = true;
            await Task.Delay(RetryPause, ct);
        }
    }

    static async Task<IAsyncDisposable?> TryAdvisoryLockAsync(NpgsqlConnection connection, CancellationToken ct) =>
        await connection.ExecuteScalarAsync<bool>(new CommandDefinition(
            "SELECT pg_try_advisory_lock(@key);", new { key = PostgresKey }, cancellationToken: ct))
            ? new AdvisoryLock(connection)
            : null;

    // FileShare.None is an exclusive lock the operating system takes (flock on Linux, a share mode on Windows). The
    // lock file stays: deleting it could let a third process lock a new file while a second still holds the old one.
    static IAsyncDisposable? TryFileLock(string path)
    {
        try
        {
            return new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None);
        }
        // Opening a file that exists fails with an IOException only while another process holds it.
        catch (IOException) when (File.Exists(path))
        {
            return null;
        }
    }

    sealed class AdvisoryLock(NpgsqlConnection connection) : IAsyncDisposable
    {
        public async ValueTask DisposeAsync()
        {
            try
            {
                await connection.ExecuteAsync("SELECT pg_advisory_unlock(@key);", new { key = PostgresKey });
            }
            catch (NpgsqlException)
            {
                // The session is gone, and its lock with it.
            }
        }
    }

    sealed class NoLock : IAsyncDisposable
    {
        public ValueTask DisposeAsync() => ValueTask.CompletedTask;
    }
}
