using IfiDashboard.Shared.Hosting;
using IfiDashboard.Store;
using IfiDashboard.Store.Migrations;
using Microsoft.Data.Sqlite;
using Microsoft.Extensions.Options;
using Npgsql;

namespace IfiDashboard.Server.Tests.Store;

/// <summary>
/// Where a test's store lives: a SQLite file the caller names, or a database of its own on the PostgreSQL server that
/// scripts/start-test-postgres.sh started, reached through <c>IFI_TEST_POSTGRES</c>, dropped when the test ends. Store
/// tests name the provider, as a theory over both (<see cref="StoreProvidersAttribute"/>); test hosts take the pass's,
/// SQLite unless <c>IFI_TEST_STORE=postgres</c> (test.sh's PostgreSQL smoke pass, <see cref="PostgresPassValue"/>).
/// </summary>
public sealed class TestDatabase : IDisposable
{
    public const string StoreVariable = "IFI_TEST_STORE";
    public const string ServerVariable = StoreProvidersAttribute.ServerVariable;

    /// <summary>For tests of what only SQLite has (a file, WAL, pragmas).</summary>
    public const string SqliteOnlyTrait = "Store";
    public const string SqliteOnlyValue = "SqliteOnly";

    /// <summary>
    /// Test classes whose hosts run again on PostgreSQL in test.sh's PostgreSQL pass (<c>--filter Store=Postgres</c>):
    /// the store's own tests that start a host, and a small end-to-end smoke set. Every other host test runs once, on
    /// the embedded store; store tests run on both as theories.
    /// </summary>
    public const string PostgresPassTrait = SqliteOnlyTrait;
    public const string PostgresPassValue = "Postgres";

    readonly string? _postgresName;

    TestDatabase(string provider, string connectionString, string? postgresName)
    {
        Provider = provider;
        ConnectionString = connectionString;
        _postgresName = postgresName;
    }

    /// <summary>The pass's store, for test hosts: PostgreSQL in test.sh's PostgreSQL pass, SQLite otherwise.</summary>
    public static bool IsPostgres =>
        string.Equals(Environment.GetEnvironmentVariable(StoreVariable), "postgres", StringComparison.OrdinalIgnoreCase);

    public static StoreProvider PassProvider => IsPostgres ? StoreProvider.Postgres : StoreProvider.Sqlite;

    public string Provider { get; }
    public string ConnectionString { get; }

    /// <summary>The pass's store (<see cref="PassProvider"/>).</summary>
    public static TestDatabase Create(string sqliteConnectionString, bool migrated = false) =>
        Create(PassProvider, sqliteConnectionString, migrated);

    /// <param name="provider">The store.</param>
    /// <param name="sqliteConnectionString">The store used when the provider is SQLite.</param>
    /// <param name="migrated">
    /// A copy of a store this test process migrated once instead of an empty one (on PostgreSQL a database made from
    /// <see cref="MigratedTemplate"/>, on SQLite a copy of <see cref="MigratedSqliteTemplate"/> at the path the
    /// connection string names): the server under test still runs its migrations and finds every script journaled,
    /// and a pass of hundreds of hosts does not run every script again for each. Tests of the migrations themselves
    /// ask for an empty store.
    /// </param>
    public static TestDatabase Create(StoreProvider provider, string sqliteConnectionString, bool migrated = false)
    {
        if (provider == StoreProvider.Sqlite)
        {
            if (migrated) CopySqliteTemplate(sqliteConnectionString);
            return new TestDatabase(StoreOptions.SqliteProvider, sqliteConnectionString, null);
        }

        var name = "ifi_test_" + Guid.NewGuid().ToString("N");
        CreatePostgresDatabase(migrated ? $"{name} TEMPLATE {MigratedTemplate.Value} STRATEGY FILE_COPY" : name);
        return new TestDatabase(StoreOptions.PostgresProvider, DatabaseConnectionString(name), name);
    }

    /// <summary>One migrated database per test run, copied for each test that asks for a migrated store.</summary>
    static readonly Lazy<string> MigratedTemplate = new(() =>
    {
        var name = "ifi_template_" + Guid.NewGuid().ToString("N");
        CreatePostgresDatabase(name);
        // No pool: a database is copied only while nobody is connected to it.
        var options = new StoreOptions
        {
            Provider = StoreOptions.PostgresProvider,
            ConnectionString = new NpgsqlConnectionStringBuilder(DatabaseConnectionString(name)) { Pooling = false }.ConnectionString,
        };
        var connections = new PostgresConnectionFactory(Microsoft.Extensions.Options.Options.Create(options));
        try
        {
            new StoreMigrations(connections, TimeProvider.System).ApplyAsync(TimeSpan.Zero, CancellationToken.None).GetAwaiter().GetResult();
        }
        finally
        {
            connections.DisposeAsync().AsTask().GetAwaiter().GetResult();
        }
        return name;
    });

    /// <summary>One migrated SQLite file per test process, copied for each test that asks for a migrated store.</summary>
    static readonly Lazy<string> MigratedSqliteTemplate = new(() =>
    {
        var path = Path.Combine(Directory.CreateTempSubdirectory("ifi-template-").FullName, "store.db");
        // No pool: once the last connection closes SQLite folds its -wal file into the database, so the file alone is
        // the whole store.
        var options = new StoreOptions { Provider = StoreOptions.SqliteProvider, ConnectionString = $"Data Source={path};Pooling=False" };
        new StoreMigrations(new SqliteConnectionFactory(Microsoft.Extensions.Options.Options.Create(options)), TimeProvider.System)
            .ApplyAsync(TimeSpan.Zero, CancellationToken.None).GetAwaiter().GetResult();
        AppDomain.CurrentDomain.ProcessExit += (_, _) =>
        {
            try { Directory.Delete(Path.GetDirectoryName(path)!, recursive: true); }
            catch (IOException) { } // a temporary folder left behind is not worth failing the run for
        };
        return path;
    });

    /// <summary>The migrated template at the connection string's path, folder and file owner-only as the server makes them.</summary>
    static void CopySqliteTemplate(string sqliteConnectionString)
    {
        var path = Path.GetFullPath(new SqliteConnectionStringBuilder(sqliteConnectionString).DataSource);
        PrivateFiles.EnsureFolder(Path.GetDirectoryName(path)!);
        PrivateFiles.EnsureFile(path);
        File.Copy(MigratedSqliteTemplate.Value, path, overwrite: true);
    }

    static void CreatePostgresDatabase(string nameAndOptions)
    {
        using var admin = new NpgsqlConnection(ServerConnectionString());
        admin.Open();
        using var create = new NpgsqlCommand($"CREATE DATABASE {nameAndOptions};", admin);
        create.ExecuteNonQuery();
    }

    static string DatabaseConnectionString(string name) =>
        new NpgsqlConnectionStringBuilder(ServerConnectionString()) { Database = name }.ConnectionString;

    public StoreOptions Options => new() { Provider = Provider, ConnectionString = ConnectionString };

    bool Postgres => Provider == StoreOptions.PostgresProvider;

    public IDbConnectionFactory CreateConnections() => Postgres
        ? new PostgresConnectionFactory(Microsoft.Extensions.Options.Options.Create(Options))
        : new SqliteConnectionFactory(Microsoft.Extensions.Options.Options.Create(Options));

    public SqlDialect Dialect => Postgres ? SqlDialect.Postgres : SqlDialect.Sqlite;

    static string ServerConnectionString() =>
        Environment.GetEnvironmentVariable(ServerVariable) is { Length: > 0 } value
            ? value
            : throw new InvalidOperationException(
                $"A PostgreSQL store test needs {ServerVariable}, the connection string of a PostgreSQL server to create " +
                "test databases on: run the tests through ./test.sh, which starts one (scripts/start-test-postgres.sh).");

    public void Dispose()
    {
        if (_postgresName is null) return;
        using var admin = new NpgsqlConnection(ServerConnectionString());
        admin.Open();
        // FORCE ends the sessions a pool of the test may still hold.
        using var drop = new NpgsqlCommand($"DROP DATABASE IF EXISTS {_postgresName} WITH (FORCE);", admin);
        drop.ExecuteNonQuery();
    }
}
