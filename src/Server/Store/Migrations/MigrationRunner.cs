using System.Data.Common;
using System.Reflection;
using Dapper;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

namespace IfiDashboard.Server.Store.Migrations;

/// <summary>
/// Applies embedded <c>.sql</c> scripts in name order, each in its own transaction, recording each in
/// <c>schema_versions</c> so it never runs twice (DbUp's semantics; DbUp itself is not in our package mirror).
/// Provider-neutral: the provider picks the connection and the resource folder.
/// </summary>
public sealed class MigrationRunner(Assembly assembly, string resourcePrefix, TimeProvider timeProvider, ILogger? logger = null)
{
    /// <summary>Resource prefix of the SQLite scripts in this assembly (folder <c>Store/Migrations/Sqlite</c>).</summary>
    public static readonly string SqlitePrefix = typeof(MigrationRunner).Namespace + ".Sqlite.";

    /// <summary>Resource prefix of the PostgreSQL scripts (folder <c>Store/Migrations/Postgres</c>): the same schema, numbered alike.</summary>
    public static readonly string PostgresPrefix = typeof(MigrationRunner).Namespace + ".Postgres.";

    readonly ILogger _logger = logger ?? NullLogger.Instance;

    public static MigrationRunner ForSqlite(TimeProvider timeProvider, ILogger? logger = null) =>
        new(typeof(MigrationRunner).Assembly, SqlitePrefix, timeProvider, logger);

    public static MigrationRunner ForPostgres(TimeProvider timeProvider, ILogger? logger = null) =>
        new(typeof(MigrationRunner).Assembly, PostgresPrefix, timeProvider, logger);

    public static MigrationRunner For(SqlDialect dialect, TimeProvider timeProvider, ILogger? logger = null) =>
        dialect.IsPostgres ? ForPostgres(timeProvider, logger) : ForSqlite(timeProvider, logger);

    /// <summary>Script names (file names) that would be considered, in the order they run.</summary>
    public IReadOnlyList<string> ScriptNames() =>
        assembly.GetManifestResourceNames()
            .Where(n => n.StartsWith(resourcePrefix, StringComparison.Ordinal) && n.EndsWith(".sql", StringComparison.Ordinal))
            .Select(n => n[resourcePrefix.Length..])
            .Order(StringComparer.Ordinal)
            .ToList();

    /// <summary>Runs the scripts not yet in the journal; returns the names of those this call applied.</summary>
    public async Task<IReadOnlyList<string>> RunAsync(DbConnection connection, CancellationToken cancellationToken)
    {
        await EnsureJournalAsync(connection, cancellationToken);
        var applied = new List<string>();
        foreach (var name in ScriptNames())
        {
            if (await TryApplyAsync(connection, name, cancellationToken))
                applied.Add(name);
        }
        return applied;
    }

    async Task EnsureJournalAsync(DbConnection connection, CancellationToken cancellationToken)
    {
        const string sql = """
            CREATE TABLE IF NOT EXISTS schema_versions (
                script_name TEXT NOT NULL PRIMARY KEY,
                applied_at  TEXT NOT NULL
            );
            """;
        // Two servers starting together on one PostgreSQL store would race to create the journal: the write lock orders them.
        await using var tx = await connection.BeginWriteAsync(cancellationToken);
        await connection.ExecuteAsync(new CommandDefinition(sql, transaction: tx, cancellationToken: cancellationToken));
        await tx.CommitAsync(cancellationToken);
    }

    // The journal is checked inside the script's own write transaction (BEGIN IMMEDIATE on SQLite, the store's
    // advisory lock on PostgreSQL), so when two processes start together the second waits for the first and then
    // sees the script as applied.
    async Task<bool> TryApplyAsync(DbConnection connection, string name, CancellationToken cancellationToken)
    {
        const string isApplied = "SELECT COUNT(*) FROM schema_versions WHERE script_name = @name;";
        const string record = "INSERT INTO schema_versions (script_name, applied_at) VALUES (@name, @appliedAt);";

        await using var tx = await connection.BeginWriteAsync(cancellationToken);
        var count = await connection.ExecuteScalarAsync<long>(
            new CommandDefinition(isApplied, new { name }, tx, cancellationToken: cancellationToken));
        if (count > 0)
            return false;

        await connection.ExecuteAsync(new CommandDefinition(ReadScript(name), transaction: tx, cancellationToken: cancellationToken));
        var appliedAt = StoreTime.ToText(timeProvider.GetUtcNow());
        await connection.ExecuteAsync(new CommandDefinition(record, new { name, appliedAt }, tx, cancellationToken: cancellationToken));
        await tx.CommitAsync(cancellationToken);
        _logger.LogInformation("Applied store migration {Script}", name);
        return true;
    }

    string ReadScript(string name)
    {
        using var stream = assembly.GetManifestResourceStream(resourcePrefix + name)
            ?? throw new InvalidOperationException($"Migration script {name} is not embedded.");
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd();
    }
}
