using System.Collections.Concurrent;
using System.Data.Common;
using IfiDashboard.Shared.Hosting;
using Microsoft.Data.Sqlite;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Store;

public sealed class SqliteConnectionFactory : IDbConnectionFactory
{
    // journal_mode=WAL is stored in the database file, so it only needs setting once per file per process;
    // the other pragmas belong to the connection and are set on every open.
    static readonly ConcurrentDictionary<string, bool> WalDatabases = new(StringComparer.Ordinal);

    // cache_size: each pooled connection keeps its own page cache, 2 MB by default, for as long as the pool keeps the
    // connection. With the embedded collector storing 32 polls at once the pool holds about 33 connections, so the
    // caches alone could take 66 MB of the server's memory. Reads of the whole store (the assessment streams a
    // million growth events) never fit in any cache, and the operating system caches the file anyway.
    // busy_timeout: how long a writer waits for another's lock before SQLITE_BUSY (StoreBusy.LockWait, the same
    // wait PostgreSQL writers get).
    static readonly string ConnectionPragmas = $"""
        PRAGMA busy_timeout = {(int)StoreBusy.LockWait.TotalMilliseconds};
        PRAGMA foreign_keys = ON;
        PRAGMA synchronous = NORMAL;
        PRAGMA cache_size = -512;
        """;

    /// <summary>SQLite's own ceiling on a database's pages, which lifts a <c>Store:MaxSizeMegabytes</c> cap set before.</summary>
    const long NoPageCap = 4294967294;

    readonly string _connectionString;
    readonly string _dataSource;
    readonly Func<int> _maxSizeMegabytes;

    /// <param name="live">The settings as they are now, so that a raised <c>Store:MaxSizeMegabytes</c> counts without a restart.</param>
    public SqliteConnectionFactory(IOptions<StoreOptions> options, IOptionsMonitor<StoreOptions>? live = null)
    {
        _maxSizeMegabytes = live is null ? () => options.Value.MaxSizeMegabytes : () => live.CurrentValue.MaxSizeMegabytes;
        StoreTypeHandlers.Register();
        // Microsoft.Data.Sqlite retries a busy statement itself for the command timeout (30 s by default) on top of
        // busy_timeout; bounded here to the same wait, so a writer stuck behind another gives up in LockWait.
        var builder = new SqliteConnectionStringBuilder(options.Value.ConnectionString);
        if (!options.Value.ConnectionString.Contains("Timeout", StringComparison.OrdinalIgnoreCase))
            builder.DefaultTimeout = (int)StoreBusy.LockWait.TotalSeconds;
        _connectionString = builder.ConnectionString;
        var dataSource = builder.DataSource;
        _dataSource = IsFile(dataSource) ? Path.GetFullPath(dataSource) : dataSource;
        if (IsFile(dataSource))
            CreatePrivately(_dataSource);
    }

    public SqlDialect Dialect => SqlDialect.Sqlite;

    public async ValueTask<DbConnection> OpenAsync(CancellationToken cancellationToken)
    {
        var connection = new SqliteConnection(_connectionString);
        try
        {
            await connection.OpenAsync(cancellationToken);
            await ExecuteAsync(connection, ConnectionPragmas, cancellationToken);
            // Pages of 4 KiB, SQLite's default; a pooled connection keeps the cap it was given, so it is set on every open.
            var cap = _maxSizeMegabytes() is > 0 and var megabytes ? megabytes * 256L : NoPageCap;
            await ExecuteAsync(connection, $"PRAGMA max_page_count = {cap};", cancellationToken);
            if (!WalDatabases.ContainsKey(_dataSource))
            {
                await ExecuteAsync(connection, "PRAGMA journal_mode = WAL;", cancellationToken);
                WalDatabases.TryAdd(_dataSource, true);
            }
            return connection;
        }
        catch
        {
            await connection.DisposeAsync();
            throw;
        }
    }

    static async Task ExecuteAsync(SqliteConnection connection, string sql, CancellationToken cancellationToken)
    {
        await using var command = connection.CreateCommand();
        command.CommandText = sql;
        await command.ExecuteNonQueryAsync(cancellationToken);
    }

    static bool IsFile(string dataSource) =>
        !string.IsNullOrEmpty(dataSource) && dataSource != ":memory:" &&
        !dataSource.StartsWith("file:", StringComparison.OrdinalIgnoreCase);

    /// <summary>The store's folder and file, created owner-only before SQLite opens them; a path the server cannot create is a setting to fix.</summary>
    static void CreatePrivately(string path)
    {
        try
        {
            if (Path.GetDirectoryName(path) is { Length: > 0 } folder) PrivateFiles.EnsureFolder(folder);
            PrivateFiles.EnsureFile(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new InvalidSettingException($"{StoreOptions.SectionName}:ConnectionString",
                $"the SQLite store {path} cannot be created ({e.Message}); choose a path the server's account can write, or create its folder for it.", e);
        }
    }
}
