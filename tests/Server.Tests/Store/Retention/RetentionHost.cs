using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Store;
using IfiDashboard.Store.Retention;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Time.Testing;
using IfiDashboard.Server.Store;

namespace IfiDashboard.Server.Tests.Store.Retention;

/// <summary>
/// The store, retention and the compliance engine registered as Program.cs registers them (a fake clock in place of
/// the system one), over a SQLite file of its own. Hosted services are not started: the test drives each step.
/// </summary>
internal sealed class RetentionHost : IAsyncDisposable
{
    readonly string _directory = Path.Combine(Path.GetTempPath(), "ifiretention-" + Guid.NewGuid().ToString("N"));
    readonly TestDatabase _database;

    RetentionHost(IReadOnlyDictionary<string, string?> settings)
    {
        _database = TestDatabase.Create($"Data Source={Path.Combine(_directory, "ifi.db")};Pooling=False", migrated: true);
        var config = new ConfigurationBuilder()
            .AddInMemoryCollection(new Dictionary<string, string?>(settings)
            {
                ["Store:Provider"] = _database.Provider,
                ["Store:ConnectionString"] = _database.ConnectionString,
                ["Retention:BatchPauseMilliseconds"] = "0",
            })
            .Build();
        var services = new ServiceCollection().AddLogging().AddSingleton<TimeProvider>(Clock);
        services.AddIfiStore(config);
        services.AddIfiRetention(config);
        services.AddIfiCompliance(config);
        Services = services.BuildServiceProvider();
    }

    public FakeTimeProvider Clock { get; } = new(TestStore.Start);
    public ServiceProvider Services { get; }

    public static async Task<RetentionHost> StartAsync(IReadOnlyDictionary<string, string?>? settings = null)
    {
        var host = new RetentionHost(settings ?? new Dictionary<string, string?>());
        await host.Services.MigrateIfiStoreAsync();
        return host;
    }

    public T Get<T>() where T : notnull => Services.GetRequiredService<T>();

    public async ValueTask DisposeAsync()
    {
        await Services.DisposeAsync();
        _database.Dispose();
        if (Directory.Exists(_directory))
            Directory.Delete(_directory, recursive: true);
    }
}
