using System.Data.Common;
using IfiDashboard.Server.Store;
using IfiDashboard.Server.Store.Dashboard;
using IfiDashboard.Shared.Dashboard;
using IfiDashboard.Server.Store.Ingestion;
using IfiDashboard.Server.Store.Inventory;
using IfiDashboard.Server.Store.Migrations;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Tests.Store;

/// <summary>A real SQLite database file in a temp directory of its own, deleted when the test ends.</summary>
public sealed class TestStore : IAsyncDisposable
{
    public static readonly DateTimeOffset Start = new(2026, 5, 3, 8, 0, 0, TimeSpan.Zero);

    TestStore()
    {
        Directory = Path.Combine(Path.GetTempPath(), "ifistore-" + Guid.NewGuid().ToString("N"));
        // Pooling off so no pooled handle keeps the file open when the directory is deleted.
        var options = new StoreOptions { ConnectionString = $"Data Source={Path.Combine(Directory, "nested", "store.db")};Pooling=False" };
        Connections = new SqliteConnectionFactory(Options.Create(options));
        Instances = new InstanceRepository(Connections, Clock);
        Snapshots = new SqliteSnapshotStore(Connections);
        Queries = new FleetQueries(Connections);
    }

    public string Directory { get; }
    public FakeTimeProvider Clock { get; } = new(Start);
    public SqliteConnectionFactory Connections { get; }
    public InstanceRepository Instances { get; }
    public SqliteSnapshotStore Snapshots { get; }
    public FleetQueries Queries { get; }

    public SqliteInstanceSource NewSource() => new(Connections, Clock);

    public static async Task<TestStore> CreateMigratedAsync()
    {
        var store = new TestStore();
        await store.MigrateAsync();
        return store;
    }

    public static TestStore CreateEmpty() => new();

    public async Task<IReadOnlyList<string>> MigrateAsync()
    {
        await using var connection = await OpenAsync();
        return await MigrationRunner.ForSqlite(Clock).RunAsync(connection, CancellationToken.None);
    }

    public ValueTask<DbConnection> OpenAsync() => Connections.OpenAsync(CancellationToken.None);

    public ValueTask DisposeAsync()
    {
        if (System.IO.Directory.Exists(Directory))
            System.IO.Directory.Delete(Directory, recursive: true);
        return ValueTask.CompletedTask;
    }
}
