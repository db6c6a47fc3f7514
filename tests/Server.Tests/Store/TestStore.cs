using System.Data.Common;
using DbUp.Engine;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Store;
using IfiDashboard.Store.Audit;
using IfiDashboard.Store.Dashboard;
using IfiDashboard.Store.Ingestion;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Store.Migrations;
using Microsoft.Extensions.Time.Testing;
using IfiDashboard.Server.Security;

namespace IfiDashboard.Server.Tests.Store;

/// <summary>
/// A real store of its own, deleted when the test ends: a SQLite file in a temp directory, or a PostgreSQL database
/// (<see cref="TestDatabase"/>). Store tests take the provider as a theory's argument (<see cref="StoreProvidersAttribute"/>).
/// </summary>
public sealed class TestStore : IAsyncDisposable
{
    public static readonly DateTimeOffset Start = new(2026, 5, 3, 8, 0, 0, TimeSpan.Zero);

    TestStore(StoreProvider provider, bool migrated, bool pooled = false)
    {
        Directory = Path.Combine(Path.GetTempPath(), "ifistore-" + Guid.NewGuid().ToString("N"));
        // Pooling off unless asked for, so no pooled handle keeps the file open when the directory is deleted.
        Database = TestDatabase.Create(provider, $"Data Source={Path.Combine(Directory, "nested", "store.db")};Pooling={pooled}", migrated);
        Connections = Database.CreateConnections();
        Audit = new AuditLog(Connections, Clock, new AuditActors());
        Instances = new InstanceInventory(Connections, Clock, Audit, new FleetChanges());
        Snapshots = new SnapshotStore(Connections);
        Queries = new FleetReader(Connections);
    }

    /// <summary>Where the SQLite file lives (in the SQLite pass).</summary>
    public string Directory { get; }
    public TestDatabase Database { get; }
    public FakeTimeProvider Clock { get; } = new(Start);
    public IDbConnectionFactory Connections { get; }
    public AuditLog Audit { get; }
    public InstanceInventory Instances { get; }
    public SnapshotStore Snapshots { get; }
    public FleetReader Queries { get; }

    public StoreInstanceSource NewSource() => new(Connections, Clock, Audit);

    /// <summary>The active instances as the assessment reads them: registration, state and engine facts.</summary>
    internal Task<IReadOnlyList<ActiveInstance>> ActiveInstancesAsync() =>
        new FactsReader(Connections).ActiveInstancesAsync(CancellationToken.None);

    /// <summary>A migrated store of the pass's provider (<see cref="TestDatabase.PassProvider"/>).</summary>
    public static Task<TestStore> CreateMigratedAsync() => CreateMigratedAsync(TestDatabase.PassProvider);

    public static async Task<TestStore> CreateMigratedAsync(StoreProvider provider)
    {
        var store = new TestStore(provider, migrated: true);
        await store.MigrateAsync();
        return store;
    }

    /// <summary>
    /// A migrated store whose SQLite connections are pooled, as the server's are, for a test that reads and writes it
    /// thousands of times: opened anew, each connection reads the schema again (a quarter of the incremental assessment
    /// test's processor time). The pool is cleared before the directory is deleted.
    /// </summary>
    public static async Task<TestStore> CreatePooledAsync(StoreProvider provider)
    {
        var store = new TestStore(provider, migrated: true, pooled: true);
        await store.MigrateAsync();
        return store;
    }

    public static TestStore CreateEmpty(StoreProvider provider) => new(provider, migrated: false);

    /// <param name="scripts">The scripts to apply: the release's own unless given.</param>
    public StoreMigrations Migrations(IReadOnlyList<SqlScript>? scripts = null) => new(Connections, Clock, scripts: scripts);

    public Task<IReadOnlyList<string>> MigrateAsync() => Migrations().ApplyAsync(TimeSpan.Zero, CancellationToken.None);

    public ValueTask<DbConnection> OpenAsync() => Connections.OpenAsync(CancellationToken.None);

    public async ValueTask DisposeAsync()
    {
        if (Connections is IAsyncDisposable disposable)
            await disposable.DisposeAsync();
        Database.Dispose();
        if (Database.Provider == StoreOptions.SqliteProvider)
            Microsoft.Data.Sqlite.SqliteConnection.ClearPool(new Microsoft.Data.Sqlite.SqliteConnection(Database.ConnectionString));
        if (System.IO.Directory.Exists(Directory))
            System.IO.Directory.Delete(Directory, recursive: true);
    }
}
