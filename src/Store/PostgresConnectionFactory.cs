using System.Data.Common;
using Microsoft.Extensions.Options;
using Npgsql;

namespace IfiDashboard.Store;

/// <summary>Connections to a shared PostgreSQL store, from one pooled data source per process.</summary>
public sealed class PostgresConnectionFactory : IDbConnectionFactory, IAsyncDisposable
{
    /// <summary>Per connection: the ingestion path runs about twenty distinct statements, the pages a few dozen more.</summary>
    public const int AutoPreparedStatements = 64;

    readonly NpgsqlDataSource _dataSource;

    public PostgresConnectionFactory(IOptions<StoreOptions> options)
    {
        StoreTypeHandlers.Register();
        var builder = new NpgsqlConnectionStringBuilder(options.Value.ConnectionString);
        // Shown in pg_stat_activity, so a DBA can tell the dashboard's sessions from others.
        if (string.IsNullOrEmpty(builder.ApplicationName))
            builder.ApplicationName = "IfiDashboard";
        // Every statement waits at most LockWait for a lock (the store's write lock, or a table another session
        // locked), then fails with 55P03, which StoreBusy turns into 503 or a retried poll, as SQLite's busy_timeout
        // does. Without it a write behind a stuck session would wait for ever.
        if (string.IsNullOrEmpty(builder.Options) || !builder.Options.Contains("lock_timeout", StringComparison.Ordinal))
            builder.Options = $"{builder.Options} -c lock_timeout={(int)StoreBusy.LockWait.TotalMilliseconds}".Trim();
        // Statements the store runs again and again (a snapshot's inserts, row by row) are prepared once per pooled
        // connection instead of parsed and planned by PostgreSQL every time (https://www.npgsql.org/doc/prepare.html).
        // An administrator behind a pooler that cannot keep prepared statements (PgBouncer in transaction mode before
        // 1.21) sets Max Auto Prepare=0 in the connection string (docs/deployment.md).
        if (!Names(options.Value.ConnectionString, "MaxAutoPrepare"))
            builder.MaxAutoPrepare = AutoPreparedStatements;
        // The store leaves no session state on a connection (locks are transaction-scoped, SET is SET TRANSACTION, no
        // temporary tables, LISTEN or cursors; the migration lock is unlocked by its holder), so Npgsql's reset of each
        // pooled connection, seven statements at every use (twice per snapshot), is skipped. An open transaction is
        // still rolled back when its connection returns to the pool. PooledSessionStateTests keeps this true.
        if (!Names(options.Value.ConnectionString, "NoResetOnClose"))
            builder.NoResetOnClose = true;
        _dataSource = NpgsqlDataSource.Create(builder.ConnectionString);
    }

    /// <summary>Whether the administrator's connection string sets <paramref name="setting"/> (in any spelling Npgsql takes).</summary>
    static bool Names(string? connectionString, string setting) =>
        new DbConnectionStringBuilder { ConnectionString = connectionString }.Keys.Cast<string>()
            .Any(key => string.Equals(key.Replace(" ", "", StringComparison.Ordinal), setting, StringComparison.OrdinalIgnoreCase));

    public SqlDialect Dialect => SqlDialect.Postgres;

    /// <summary>The pool itself, for DbUp's migrations (Store/Migrations).</summary>
    internal NpgsqlDataSource DataSource => _dataSource;

    public async ValueTask<DbConnection> OpenAsync(CancellationToken cancellationToken) =>
        await _dataSource.OpenConnectionAsync(cancellationToken);

    public ValueTask DisposeAsync() => _dataSource.DisposeAsync();
}
