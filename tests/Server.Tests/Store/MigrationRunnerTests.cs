using Dapper;
using IfiDashboard.Server.Store.Migrations;

namespace IfiDashboard.Server.Tests.Store;

public sealed class MigrationRunnerTests
{
    static readonly string[] ExpectedTables =
        ["database_backups", "database_encryption", "database_files", "growth_events", "ifi_changes", "instance_state",
         "instances", "polls", "probe_outcomes", "schema_versions", "service_snapshots"];

    [Fact]
    public void Sqlite_scripts_are_embedded_and_ordered_by_name()
    {
        var names = MigrationRunner.ForSqlite(TimeProvider.System).ScriptNames();

        Assert.Equal("0001_initial.sql", names[0]);
        Assert.Equal(names.Order(StringComparer.Ordinal), names);
    }

    [Fact]
    public void Each_provider_has_a_script_of_every_number_so_their_schemas_move_together()
    {
        var sqlite = MigrationRunner.ForSqlite(TimeProvider.System).ScriptNames();
        var postgres = MigrationRunner.ForPostgres(TimeProvider.System).ScriptNames();

        Assert.NotEmpty(postgres);
        Assert.Equal(sqlite, postgres);
    }

    static string TablesSql(TestStore store) => store.Connections.Dialect.IsPostgres
        ? "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name;"
        : "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name;";

    [Fact]
    public async Task Migrations_create_the_schema_and_journal_every_script()
    {
        await using var store = TestStore.CreateEmpty();

        var applied = await store.MigrateAsync();

        await using var connection = await store.OpenAsync();
        var tables = await connection.QueryAsync<string>(TablesSql(store));
        var journal = await connection.QueryAsync<string>("SELECT script_name FROM schema_versions ORDER BY script_name;");
        // Every table this store relies on; features may add more in later scripts.
        Assert.Superset(ExpectedTables.ToHashSet(), tables.ToHashSet());
        Assert.Equal(store.Runner().ScriptNames(), applied);
        Assert.Equal(applied, journal);
    }

    [Fact]
    public async Task Second_run_applies_nothing()
    {
        await using var store = TestStore.CreateEmpty();
        await store.MigrateAsync();

        var second = await store.MigrateAsync();

        Assert.Empty(second);
    }

    [Fact]
    public async Task Two_runners_starting_at_once_apply_each_script_once()
    {
        await using var store = TestStore.CreateEmpty();
        await using var first = await store.OpenAsync();
        await using var second = await store.OpenAsync();
        var runner = store.Runner();

        var results = await Task.WhenAll(
            Task.Run(() => runner.RunAsync(first, CancellationToken.None)),
            Task.Run(() => runner.RunAsync(second, CancellationToken.None)));

        Assert.Equal(runner.ScriptNames(), results.SelectMany(r => r).Order(StringComparer.Ordinal));
        var journalRows = await first.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM schema_versions;");
        Assert.Equal(runner.ScriptNames().Count, journalRows);
    }

    [Fact, Trait(TestDatabase.SqliteOnlyTrait, TestDatabase.SqliteOnlyValue)]
    public async Task Database_is_in_wal_mode()
    {
        await using var store = await TestStore.CreateMigratedAsync();
        await using var connection = await store.OpenAsync();

        var mode = await connection.ExecuteScalarAsync<string>("PRAGMA journal_mode;");

        Assert.Equal("wal", mode);
    }

    [Fact, Trait(TestDatabase.SqliteOnlyTrait, TestDatabase.SqliteOnlyValue)]
    public async Task Connections_enforce_foreign_keys()
    {
        await using var store = await TestStore.CreateMigratedAsync();
        await using var connection = await store.OpenAsync();

        var enabled = await connection.ExecuteScalarAsync<long>("PRAGMA foreign_keys;");

        Assert.Equal(1, enabled);
    }

    [Fact]
    public async Task No_column_anywhere_could_hold_a_password()
    {
        await using var store = await TestStore.CreateMigratedAsync();
        await using var connection = await store.OpenAsync();

        var columns = await connection.QueryAsync<string>(store.Connections.Dialect.IsPostgres
            ? "SELECT table_name || '.' || column_name FROM information_schema.columns WHERE table_schema = current_schema();"
            : "SELECT m.name || '.' || c.name FROM sqlite_master m, pragma_table_info(m.name) c WHERE m.type = 'table';");
        var suspicious = columns.Where(c => new[] { "password", "passwd", "pwd", "secret" }
            .Any(word => c.Contains(word, StringComparison.OrdinalIgnoreCase)));

        Assert.Contains("instances.credential_name", columns); // the query saw the schema
        Assert.Empty(suspicious);
    }
}
