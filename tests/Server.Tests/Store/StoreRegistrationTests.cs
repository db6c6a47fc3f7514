using IfiDashboard.Server.Store;
using IfiDashboard.Server.Store.Dashboard;
using IfiDashboard.Shared.Dashboard;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Tests.Store;

public sealed class StoreRegistrationTests : IDisposable
{
    readonly string _directory = Path.Combine(Path.GetTempPath(), "ifistore-" + Guid.NewGuid().ToString("N"));
    readonly TestDatabase _database;

    public StoreRegistrationTests() =>
        _database = TestDatabase.Create($"Data Source={Path.Combine(_directory, "data", "ifi.db")};Pooling=False");

    ServiceProvider BuildProvider()
    {
        var config = new ConfigurationBuilder()
            .AddInMemoryCollection(new Dictionary<string, string?>
            {
                ["Store:Provider"] = _database.Provider,
                ["Store:ConnectionString"] = _database.ConnectionString,
            })
            .Build();
        return new ServiceCollection().AddIfiStore(config).BuildServiceProvider();
    }

    [Fact]
    public async Task Store_is_ready_only_after_migration_and_resolves_its_services()
    {
        await using var provider = BuildProvider();
        var health = provider.GetRequiredService<StoreHealth>();

        var beforeMigration = await health.CanReachAsync(CancellationToken.None);
        await provider.MigrateIfiStoreAsync();
        var afterMigration = await health.CanReachAsync(CancellationToken.None);

        Assert.False(beforeMigration);
        Assert.True(afterMigration);
        if (!TestDatabase.IsPostgres)
            Assert.True(File.Exists(Path.Combine(_directory, "data", "ifi.db"))); // the file and its folders are created
        Assert.NotNull(provider.GetRequiredService<ISnapshotSink>());
        Assert.NotNull(provider.GetRequiredService<IInstanceSource>());
        Assert.Empty(await provider.GetRequiredService<FleetQueries>().ListInstancesAsync(CancellationToken.None));
    }

    [Fact]
    public void Unimplemented_provider_is_refused()
    {
        var config = new ConfigurationBuilder()
            .AddInMemoryCollection(new Dictionary<string, string?> { ["Store:Provider"] = "Oracle" })
            .Build();
        using var provider = new ServiceCollection().AddIfiStore(config).BuildServiceProvider();

        Assert.Throws<OptionsValidationException>(() => provider.GetRequiredService<IDbConnectionFactory>());
    }

    public void Dispose()
    {
        _database.Dispose();
        if (Directory.Exists(_directory))
            Directory.Delete(_directory, recursive: true);
    }
}
