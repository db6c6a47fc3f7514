using System.Data.Common;
using System.Globalization;
using DbUp;
using DbUp.Builder;
using DbUp.Engine;
using DbUp.Engine.Output;
using DbUp.Postgresql;
using DbUp.ScriptProviders;
using DbUp.Sqlite.Helpers;
using IfiDashboard.Shared.Hosting;
using Microsoft.Data.Sqlite;
using Microsoft.Extensions.Logging.Abstractions;

namespace IfiDashboard.Store.Migrations;

/// <summary>
/// The store's schema, brought up to date by DbUp: the <c>.sql</c> scripts embedded from the provider's folder
/// (<c>Store/Migrations/Sqlite</c> or <c>Store/Migrations/Postgres</c>, numbered alike), applied in name order, each
/// in one transaction with its row in <c>schema_versions</c>, so a journaled script never runs again
/// (docs/decisions/0006-dbup-migrations.md).
/// </summary>
public sealed class StoreMigrations
{
    readonly IDbConnectionFactory _connections;
    readonly TimeProvider _timeProvider;
    readonly ILogger _logger;
    readonly IReadOnlyList<SqlScript> _scripts;

    /// <param name="scripts">What to apply: the provider's embedded scripts unless given.</param>
    public StoreMigrations(IDbConnectionFactory connections, TimeProvider timeProvider,
        ILogger<StoreMigrations>? logger = null, IReadOnlyList<SqlScript>? scripts = null)
    {
        _connections = connections;
        _timeProvider = timeProvider;
        _logger = logger ?? (ILogger)NullLogger.Instance;
        _scripts = scripts ?? EmbeddedScripts(connections.Dialect);
    }

    /// <summary>
    /// The provider's embedded scripts, named by file name (<c>0001_initial.sql</c>): the name every store has
    /// journaled since the first release, where DbUp would name them by resource name.
    /// </summary>
    public static IReadOnlyList<SqlScript> EmbeddedScripts(SqlDialect dialect)
    {
        var prefix = typeof(StoreMigrations).Namespace + (dialect.IsPostgres ? ".Postgres." : ".Sqlite.");
        var embedded = new EmbeddedScriptProvider(typeof(StoreMigrations).Assembly,
            name => name.StartsWith(prefix, StringComparison.Ordinal) && name.EndsWith(".sql", StringComparison.Ordinal));
        // The embedded provider reads resources only: it has no use for a connection.
        return embedded.GetScripts(connectionManager: null)
            .Select(script => new SqlScript(script.Name[prefix.Length..], script.Contents, script.SqlScriptOptions))
            .ToList();
    }

    /// <summary>Names of the scripts this release applies, in the order DbUp runs them.</summary>
    public IReadOnlyList<string> ScriptNames() =>
        _scripts.Select(script => script.Name).Order(StringComparer.Ordinal).ToList();

    /// <summary>
    /// Applies the scripts not yet journaled, under the migration lock (<see cref="MigrationLock"/>) so that servers
    /// starting together migrate once; returns the names of those this call applied. The first connection may wait up
    /// to <paramref name="startupWait"/> for a database server that is still starting. A failing script is rolled
    /// back whole and thrown as a <see cref="StoreMigrationException"/> naming it.
    /// </summary>
    public async Task<IReadOnlyList<string>> ApplyAsync(TimeSpan startupWait, CancellationToken cancellationToken)
    {
        await using var connection = await StoreStartup.OpenWhenReachableAsync(_connections, startupWait, _logger, cancellationToken);
        await using var migrationLock = await MigrationLock.AcquireAsync(connection, _logger, cancellationToken);

        var engine = Deploy(connection).WithTransactionPerScript().Build();
        RefuseNewerSchema(engine.GetExecutedScripts());
        engine.ScriptExecuted += (_, e) =>
            _logger.LogInformation("Applied store migration {Script}", ((ScriptExecutedEventArgs)e).Script.Name);
        var result = engine.PerformUpgrade();
        if (!result.Successful)
            throw new StoreMigrationException(result.ErrorScript?.Name, result.Error);
        return result.Scripts.Select(script => script.Name).ToList();
    }

    /// <summary>
    /// Migrations are one-way: a store an upgraded release has migrated past this release's scripts holds tables this
    /// release does not know, which it would read wrongly and write incompletely. It stops instead, naming the way back.
    /// </summary>
    void RefuseNewerSchema(IEnumerable<string> journaled)
    {
        var known = ScriptNames();
        var unknown = journaled.Except(known, StringComparer.Ordinal).Order(StringComparer.Ordinal).ToList();
        if (unknown.Count == 0) return;
        throw new InvalidSettingException("Store:ConnectionString",
            $"the store was migrated by a newer release ({unknown[^1]}; the newest this release knows is {known[^1]}): " +
            "run that release, or restore the backup taken before the upgrade (docs/deployment.md#upgrades).");
    }

    /// <summary>The scripts of this release not yet applied to the store: none when the store is migrated.</summary>
    public async Task<IReadOnlyList<string>> PendingScriptsAsync(CancellationToken cancellationToken)
    {
        await using var connection = await _connections.OpenAsync(cancellationToken);
        // Reads only, so no transaction: on SQLite that would be a write lock (BEGIN IMMEDIATE).
        var engine = Deploy(connection).WithoutTransaction().Build();
        return engine.GetScriptsToExecute().Select(script => script.Name).ToList();
    }

    // SQLite: DbUp works on the connection the store opened, with its pragmas (busy_timeout, foreign keys). PostgreSQL:
    // on connections of the store's own data source, while `connection` holds the migration lock on a session of its own.
    UpgradeEngineBuilder Deploy(DbConnection connection)
    {
        var builder = connection is SqliteConnection sqlite
            ? DeployChanges.To.SqliteDatabase(new SharedConnection(sqlite))
            : DeployChanges.To.PostgresqlDatabase(new PostgresqlConnectionManager(
                ((PostgresConnectionFactory)_connections).DataSource));
        return builder
            .WithScripts(_scripts)
            .JournalTo((connectionManager, log) =>
                new SchemaVersionsJournal(connectionManager, log, _connections.Dialect, _timeProvider))
            // Scripts are plain SQL: a '$' (a JSON path, a PostgreSQL dollar quote) is never a DbUp variable.
            .WithVariablesDisabled()
            .LogTo(new UpgradeLog(_logger));
    }

    /// <summary>
    /// DbUp's own lines ("Beginning database upgrade", "Fetching list of already executed scripts") go to Debug: at
    /// Information the log says which scripts were applied, once each, and a failure reaches the caller as a
    /// <see cref="StoreMigrationException"/>, so DbUp's error lines would only say it a second time.
    /// </summary>
    sealed class UpgradeLog(ILogger logger) : IUpgradeLog
    {
        public void LogTrace(string format, params object[] args) => Write(LogLevel.Trace, null, format, args);
        public void LogDebug(string format, params object[] args) => Write(LogLevel.Debug, null, format, args);
        public void LogInformation(string format, params object[] args) => Write(LogLevel.Debug, null, format, args);
        public void LogWarning(string format, params object[] args) => Write(LogLevel.Warning, null, format, args);
        public void LogError(string format, params object[] args) => Write(LogLevel.Debug, null, format, args);
        public void LogError(Exception ex, string format, params object[] args) => Write(LogLevel.Debug, ex, format, args);

        void Write(LogLevel level, Exception? exception, string format, object[] args)
        {
            // DbUp also passes text with no arguments (an exception's ToString()), which may hold braces.
            if (logger.IsEnabled(level))
                logger.Log(level, exception, "DbUp: {Message}",
                    args.Length == 0 ? format : string.Format(CultureInfo.InvariantCulture, format, args));
        }
    }
}

/// <summary>A migration script failed; nothing of it was applied (its transaction was rolled back).</summary>
public sealed class StoreMigrationException(string? script, Exception? error)
    : Exception($"Store migration {script ?? "(before any script)"} failed and was rolled back: {error?.Message}", error)
{
    public string? Script { get; } = script;
}
