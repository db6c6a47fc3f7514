using Dapper;
using IfiDashboard.Store;
using IfiDashboard.Store.Dashboard;
using IfiDashboard.Store.Migrations;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Options;
using IfiDashboard.Server.Store;

namespace IfiDashboard.Server.Tests.Store;

[Trait(TestDatabase.PostgresPassTrait, TestDatabase.PostgresPassValue)]
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

        var beforeMigration = await health.CheckHealthAsync(new HealthCheckContext());
        await provider.MigrateIfiStoreAsync();
        var afterMigration = await health.CheckHealthAsync(new HealthCheckContext());

        Assert.Equal(HealthStatus.Unhealthy, beforeMigration.Status);
        Assert.Matches(@"^The store has [1-9][0-9]* migration\(s\) pending; the server applies them when it starts\.$", beforeMigration.Description);
        Assert.Equal(HealthStatus.Healthy, afterMigration.Status);
        if (!TestDatabase.IsPostgres)
            Assert.True(File.Exists(Path.Combine(_directory, "data", "ifi.db"))); // the file and its folders are created
        Assert.NotNull(provider.GetRequiredService<IfiDashboard.Store.Ingestion.SnapshotStore>());
        Assert.NotNull(provider.GetRequiredService<IInstanceSource>());
        Assert.Equal(0, (await provider.GetRequiredService<FleetReader>().CountsAsync(CancellationToken.None)).Total);
    }

    [Fact]
    public async Task Store_with_a_migration_missing_from_its_journal_is_not_ready()
    {
        await using var provider = BuildProvider();
        await provider.MigrateIfiStoreAsync();
        await using (var connection = await provider.GetRequiredService<IDbConnectionFactory>().OpenAsync(CancellationToken.None))
            await connection.ExecuteAsync("DELETE FROM schema_versions WHERE script_name = (SELECT MAX(script_name) FROM schema_versions);");

        var result = await provider.GetRequiredService<StoreHealth>().CheckHealthAsync(new HealthCheckContext());

        Assert.Equal(HealthStatus.Unhealthy, result.Status);
        Assert.Equal("The store has 1 migration(s) pending; the server applies them when it starts.", result.Description);
    }

    [Fact]
    public async Task Store_that_cannot_be_written_is_not_ready_and_the_probe_write_leaves_nothing_behind()
    {
        await using var provider = BuildProvider();
        await provider.MigrateIfiStoreAsync();
        var journalBefore = await JournalAsync(provider.GetRequiredService<IDbConnectionFactory>());
        var readOnly = new StoreOptions
        {
            Provider = _database.Provider,
            ConnectionString = _database.ConnectionString + (TestDatabase.IsPostgres ? ";Options=-c default_transaction_read_only=on" : ";Mode=ReadOnly"),
        };
        var readOnlyConnections = TestDatabase.IsPostgres
            ? (IDbConnectionFactory)new PostgresConnectionFactory(Options.Create(readOnly))
            : new SqliteConnectionFactory(Options.Create(readOnly));

        var writable = await provider.GetRequiredService<StoreHealth>().CheckHealthAsync(new HealthCheckContext());
        var notWritable = await new StoreHealth(readOnlyConnections, new StoreMigrations(readOnlyConnections, TimeProvider.System),
            provider.GetRequiredService<StoreAvailability>()).CheckHealthAsync(new HealthCheckContext());

        Assert.Equal(HealthStatus.Healthy, writable.Status);
        Assert.Equal(journalBefore, await JournalAsync(provider.GetRequiredService<IDbConnectionFactory>()));
        Assert.Equal(HealthStatus.Unhealthy, notWritable.Status);
        Assert.Equal("The store cannot be written.", notWritable.Description);
        if (readOnlyConnections is IAsyncDisposable disposable) await disposable.DisposeAsync();
    }

    static async Task<string> JournalAsync(IDbConnectionFactory connections)
    {
        await using var connection = await connections.OpenAsync(CancellationToken.None);
        var rows = await connection.QueryAsync<(string, string)>("SELECT script_name, applied_at FROM schema_versions ORDER BY script_name;");
        return string.Join("\n", rows);
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
