using Dapper;
using DbUp.Engine;
using IfiDashboard.Store;
using IfiDashboard.Store.Migrations;
using IfiDashboard.Server.Tests.Alerts;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

namespace IfiDashboard.Server.Tests.Store;

public sealed class StoreMigrationsTests
{
    static readonly CancellationToken None = CancellationToken.None;

    static readonly string[] ExpectedTables =
        ["database_backups", "database_encryption", "database_files", "growth_events", "ifi_changes", "instance_state",
         "instances", "polls", "probe_outcomes", "schema_versions", "service_snapshots"];

    /// <summary>The release's scripts and one more, as a later release would add it.</summary>
    internal static IReadOnlyList<SqlScript> WithLaterScript(SqlDialect dialect, string name, string sql) =>
        [.. StoreMigrations.EmbeddedScripts(dialect), new SqlScript(name, sql)];

    internal static async Task<IReadOnlyList<string>> JournalAsync(TestStore store)
    {
        await using var connection = await store.OpenAsync();
        return (await connection.QueryAsync<string>("SELECT script_name FROM schema_versions ORDER BY script_name;")).ToList();
    }

    internal static async Task<bool> TableExistsAsync(TestStore store, string table)
    {
        await using var connection = await store.OpenAsync();
        return await connection.ExecuteScalarAsync<long>(store.Connections.Dialect.IsPostgres
            ? "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = @table;"
            : "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = @table;", new { table }) == 1;
    }

    [Fact]
    public void Scripts_are_named_by_file_name_as_the_journal_has_always_recorded_them()
    {
        var names = StoreMigrations.EmbeddedScripts(SqlDialect.Sqlite).Select(s => s.Name).ToList();

        Assert.Equal("0001_initial.sql", names[0]);
        Assert.Equal(names.Order(StringComparer.Ordinal), names);
        Assert.All(names, name => Assert.Matches(@"^\d{4}_[a-z_]+\.sql$", name));
    }

    [Fact]
    public void Each_provider_has_a_script_of_every_number_so_their_schemas_move_together()
    {
        var sqlite = StoreMigrations.EmbeddedScripts(SqlDialect.Sqlite).Select(s => s.Name);
        var postgres = StoreMigrations.EmbeddedScripts(SqlDialect.Postgres).Select(s => s.Name);

        Assert.NotEmpty(postgres);
        Assert.Equal(sqlite, postgres);
        Assert.NotEqual(StoreMigrations.EmbeddedScripts(SqlDialect.Sqlite)[0].Contents,
            StoreMigrations.EmbeddedScripts(SqlDialect.Postgres)[0].Contents);
    }

    static string TablesSql(TestStore store) => store.Connections.Dialect.IsPostgres
        ? "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name;"
        : "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name;";

    [Theory, StoreProviders]
    public async Task Migrations_create_the_schema_and_journal_every_script_with_the_store_clock(StoreProvider provider)
    {
        await using var store = TestStore.CreateEmpty(provider);

        var applied = await store.MigrateAsync();

        await using var connection = await store.OpenAsync();
        var tables = await connection.QueryAsync<string>(TablesSql(store));
        var appliedAt = await connection.QueryAsync<string>("SELECT DISTINCT applied_at FROM schema_versions;");
        // Every table this store relies on; features may add more in later scripts.
        Assert.Superset(ExpectedTables.ToHashSet(), tables.ToHashSet());
        Assert.Equal(store.Migrations().ScriptNames(), applied);
        Assert.Equal(applied, await JournalAsync(store));
        Assert.Equal(["2026-05-03T08:00:00.0000000Z"], appliedAt);
        Assert.Empty(await store.Migrations().PendingScriptsAsync(None));
    }

    [Theory, StoreProviders]
    public async Task Second_run_applies_nothing(StoreProvider provider)
    {
        await using var store = TestStore.CreateEmpty(provider);
        await store.MigrateAsync();

        var second = await store.MigrateAsync();

        Assert.Empty(second);
        Assert.Equal(store.Migrations().ScriptNames(), await JournalAsync(store));
    }

    [Theory, StoreProviders]
    public async Task A_script_added_by_a_later_release_is_applied_to_a_migrated_store(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var later = store.Migrations(WithLaterScript(store.Connections.Dialect, "9001_later_feature.sql",
            "CREATE TABLE later_feature (id INTEGER PRIMARY KEY);"));

        Assert.Equal(["9001_later_feature.sql"], await later.PendingScriptsAsync(None));
        var applied = await later.ApplyAsync(TimeSpan.Zero, None);

        Assert.Equal(["9001_later_feature.sql"], applied);
        Assert.True(await TableExistsAsync(store, "later_feature"));
        Assert.Equal(later.ScriptNames(), await JournalAsync(store));
        Assert.Empty(await later.PendingScriptsAsync(None));
    }

    [Theory, StoreProviders]
    public async Task A_failing_script_is_named_and_leaves_nothing_half_applied(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var logs = new CapturedLogs();
        // Braces in the error text: DbUp logs it as a format string.
        var broken = new StoreMigrations(store.Connections, store.Clock, TraceLogger(logs),
            WithLaterScript(store.Connections.Dialect, "9001_broken.sql", """
                CREATE TABLE half_applied (id INTEGER PRIMARY KEY);
                INSERT INTO "no_such_{table}" (id) VALUES (1);
                """));

        var error = await Assert.ThrowsAsync<StoreMigrationException>(() => broken.ApplyAsync(TimeSpan.Zero, None));

        Assert.Equal("9001_broken.sql", error.Script);
        Assert.Contains("9001_broken.sql", error.Message);
        Assert.Contains("no_such_{table}", error.Message); // the database's own reason
        Assert.Contains("no_such_{table}", logs.All); // DbUp's lines, at Debug
        Assert.False(await TableExistsAsync(store, "half_applied"));
        Assert.Equal(store.Migrations().ScriptNames(), await JournalAsync(store));
        Assert.Equal(["9001_broken.sql"], await broken.PendingScriptsAsync(None));
    }

    static ILogger<StoreMigrations> TraceLogger(CapturedLogs logs) =>
        new Logger<StoreMigrations>(LoggerFactory.Create(b => b.AddProvider(logs).SetMinimumLevel(LogLevel.Trace)));

    [Theory, StoreProviders]
    public async Task Each_applied_script_is_logged_once_at_information_and_dbup_itself_only_at_debug(StoreProvider provider)
    {
        await using var store = TestStore.CreateEmpty(provider);
        var logs = new CapturedLogs();
        var migrations = new StoreMigrations(store.Connections, store.Clock, TraceLogger(logs));

        await migrations.ApplyAsync(TimeSpan.Zero, None);

        var information = logs.All.Split('\n').Where(line => line.StartsWith("Information ", StringComparison.Ordinal)).ToList();
        Assert.Equal(migrations.ScriptNames().Select(name =>
            $"Information {typeof(StoreMigrations).FullName}: Applied store migration {name} "), information);
        Assert.Contains("DbUp: Beginning database upgrade", logs.All); // DbUp's lines are there, below Information
    }

    [Theory, StoreProviders]
    public async Task Two_servers_starting_at_once_on_one_store_apply_each_script_once(StoreProvider provider)
    {
        await using var store = TestStore.CreateEmpty(provider);
        // Each "server" has its own connections (its own pool), as two processes would.
        var secondServer = store.Database.CreateConnections();
        try
        {
            var first = store.Migrations();
            var second = new StoreMigrations(secondServer, store.Clock);

            var results = await Task.WhenAll(
                Task.Run(() => first.ApplyAsync(TimeSpan.Zero, None)),
                Task.Run(() => second.ApplyAsync(TimeSpan.Zero, None)));

            Assert.Equal(first.ScriptNames(), results.SelectMany(r => r).Order(StringComparer.Ordinal));
            Assert.Equal(first.ScriptNames(), await JournalAsync(store));
        }
        finally
        {
            if (secondServer is IAsyncDisposable disposable)
                await disposable.DisposeAsync();
        }
    }

    [Theory, StoreProviders]
    public async Task A_server_waits_while_another_holds_the_migration_lock_then_applies_what_is_left(StoreProvider provider)
    {
        await using var store = TestStore.CreateEmpty(provider);
        var otherServer = store.Database.CreateConnections();
        try
        {
            var logs = new CapturedLogs();
            var migrations = new StoreMigrations(store.Connections, store.Clock, TraceLogger(logs));
            await using var otherConnection = await otherServer.OpenAsync(None);
            var held = await MigrationLock.AcquireAsync(otherConnection, NullLogger.Instance, None);

            var apply = Task.Run(() => migrations.ApplyAsync(TimeSpan.Zero, None));
            var waited = await Eventually.WaitAsync(() => logs.All, all => all.Contains(MigrationLock.WaitingMessage));

            Assert.Contains(MigrationLock.WaitingMessage, waited);
            Assert.False(apply.IsCompleted);
            Assert.False(await TableExistsAsync(store, "schema_versions"));
            await held.DisposeAsync();
            Assert.Equal(migrations.ScriptNames(), await apply.WaitAsync(TimeSpan.FromMinutes(1)));
        }
        finally
        {
            if (otherServer is IAsyncDisposable disposable)
                await disposable.DisposeAsync();
        }
    }

    [Fact, Trait(TestDatabase.SqliteOnlyTrait, TestDatabase.SqliteOnlyValue)]
    public async Task Database_is_in_wal_mode()
    {
        await using var store = await TestStore.CreateMigratedAsync(StoreProvider.Sqlite);
        await using var connection = await store.OpenAsync();

        var mode = await connection.ExecuteScalarAsync<string>("PRAGMA journal_mode;");

        Assert.Equal("wal", mode);
    }

    [Fact, Trait(TestDatabase.SqliteOnlyTrait, TestDatabase.SqliteOnlyValue)]
    public async Task Connections_enforce_foreign_keys()
    {
        await using var store = await TestStore.CreateMigratedAsync(StoreProvider.Sqlite);
        await using var connection = await store.OpenAsync();

        var enabled = await connection.ExecuteScalarAsync<long>("PRAGMA foreign_keys;");

        Assert.Equal(1, enabled);
    }

    [Theory, StoreProviders]
    public async Task No_column_anywhere_could_hold_a_password(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        await using var connection = await store.OpenAsync();

        var columns = await connection.QueryAsync<string>(store.Connections.Dialect.IsPostgres
            ? "SELECT table_name || '.' || column_name FROM information_schema.columns WHERE table_schema = current_schema();"
            : "SELECT m.name || '.' || c.name FROM sqlite_master m, pragma_table_info(m.name) c WHERE m.type = 'table';");
        // The one secret the server must read back, a change webhook's signing key, is kept as data-protection
        // ciphertext (ChangeWebhookTests reads the row and finds neither the key nor the URL's token in clear).
        string[] ciphertext = ["change_webhooks.secret_protected"];
        var suspicious = columns.Except(ciphertext).Where(c => new[] { "password", "passwd", "pwd", "secret" }
            .Any(word => c.Contains(word, StringComparison.OrdinalIgnoreCase)));

        Assert.Contains("instances.credential_name", columns); // the query saw the schema
        Assert.Empty(suspicious);
    }
}
