using System.Collections.Concurrent;
using System.Data.Common;
using Microsoft.Data.Sqlite;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Store;

public sealed class SqliteConnectionFactory : IDbConnectionFactory
{
    // journal_mode=WAL is stored in the database file, so it only needs setting once per file per process;
    // the other pragmas belong to the connection and are set on every open.
    static readonly ConcurrentDictionary<string, bool> WalDatabases = new(StringComparer.Ordinal);

    const string ConnectionPragmas = """
        PRAGMA busy_timeout = 5000;
        PRAGMA foreign_keys = ON;
        PRAGMA synchronous = NORMAL;
        """;

    readonly string _connectionString;
    readonly string _dataSource;

    public SqliteConnectionFactory(IOptions<StoreOptions> options)
    {
        _connectionString = options.Value.ConnectionString;
        var dataSource = new SqliteConnectionStringBuilder(_connectionString).DataSource;
        _dataSource = IsFile(dataSource) ? Path.GetFullPath(dataSource) : dataSource;
        if (IsFile(dataSource))
            EnsureDirectory(_dataSource);
    }

    public SqlDialect Dialect => SqlDialect.Sqlite;

    public async ValueTask<DbConnection> OpenAsync(CancellationToken cancellationToken)
    {
        var connection = new SqliteConnection(_connectionString);
        try
        {
            await connection.OpenAsync(cancellationToken);
            await ExecuteAsync(connection, ConnectionPragmas, cancellationToken);
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

    static void EnsureDirectory(string fullPath)
    {
        var directory = Path.GetDirectoryName(fullPath);
        if (!string.IsNullOrEmpty(directory))
            Directory.CreateDirectory(directory);
    }
}
