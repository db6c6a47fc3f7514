using System.Data;
using DbUp.Engine;
using DbUp.Engine.Output;
using DbUp.Engine.Transactions;
using DbUp.Postgresql;
using DbUp.Sqlite;
using DbUp.Support;

namespace IfiDashboard.Store.Migrations;

/// <summary>
/// DbUp's journal kept in the table every store has had since the first release,
/// <c>schema_versions(script_name, applied_at)</c>, rather than DbUp's own <c>SchemaVersions</c> layout: a store made
/// before DbUp upgrades with nothing converted, and the release before it can still read the journal. Times are the
/// store's UTC text (<see cref="StoreTime"/>) from the store's clock, where DbUp would write its machine's local time.
/// </summary>
sealed class SchemaVersionsJournal(Func<IConnectionManager> connectionManager, Func<IUpgradeLog> log, SqlDialect dialect,
    TimeProvider timeProvider)
    : TableJournal(connectionManager, log,
        dialect.IsPostgres ? new PostgresqlObjectParser() : new SqliteObjectParser(), schema: null, table: "schema_versions")
{
    protected override string CreateSchemaTableSql(string quotedPrimaryKeyName) => """
        CREATE TABLE IF NOT EXISTS schema_versions (
            script_name TEXT NOT NULL PRIMARY KEY,
            applied_at  TEXT NOT NULL
        );
        """;

    protected override string DoesTableExistSql() => dialect.IsPostgres
        ? "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'schema_versions';"
        : "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_versions';";

    protected override string GetJournalEntriesSql() => "SELECT script_name FROM schema_versions ORDER BY script_name;";

    protected override string GetInsertJournalEntrySql(string scriptName, string applied) =>
        $"INSERT INTO schema_versions (script_name, applied_at) VALUES ({scriptName}, {applied});";

    protected override IDbCommand GetInsertScriptCommand(Func<IDbCommand> dbCommandFactory, SqlScript script)
    {
        var command = dbCommandFactory();
        AddParameter(command, "scriptName", script.Name);
        AddParameter(command, "appliedAt", StoreTime.ToText(timeProvider.GetUtcNow()));
        command.CommandText = GetInsertJournalEntrySql("@scriptName", "@appliedAt");
        return command;
    }

    static void AddParameter(IDbCommand command, string name, string value)
    {
        var parameter = command.CreateParameter();
        parameter.ParameterName = name;
        parameter.Value = value;
        command.Parameters.Add(parameter);
    }
}
