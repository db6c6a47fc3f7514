using Dapper;
using IfiDashboard.Collector.Connections;
using IfiDashboard.Collector.Credentials;
using IfiDashboard.Collector.Probes;
using IfiDashboard.Collector.Scheduling;
using IfiDashboard.Store;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>Two collectors sharing one store lease instances so that each instance is polled once, not twice.</summary>
[Trait(Store.TestDatabase.PostgresPassTrait, Store.TestDatabase.PostgresPassValue)]
public sealed class TwoCollectorsTests
{
    static CollectorService Collector(IServiceProvider services, string name)
    {
        var options = new CollectorOptions { Name = name, MaxConcurrency = 4 };
        var credentials = new ConfigurationCredentialResolver(services.GetRequiredService<IConfiguration>());
        var prober = new InstanceProber(new ConnectionStringFactory(credentials, options, NullLogger<ConnectionStringFactory>.Instance), options, new GrowthWatermarks(), TimeProvider.System);
        return new CollectorService(services.GetRequiredService<IInstanceSource>(), prober, services.GetRequiredService<ISnapshotSink>(),
            options, new CollectorMetrics(), new CollectorWakeUp(), TimeProvider.System, NullLogger<CollectorService>.Instance);
    }

    [Fact]
    public async Task Two_collectors_polling_at_once_poll_every_instance_exactly_once()
    {
        var instances = Enumerable.Range(1, 12).Select(i => new ScenarioInstance { Name = $"sql{i:00}", Profile = "2019", IfiEnabled = true }).ToArray();
        await using var host = new DashboardHost(instances);
        await host.RegisterFleetAsync();
        var first = Collector(host.Services, "collector-a");
        var second = Collector(host.Services, "collector-b");

        var counts = await Task.WhenAll(first.PollDueOnceAsync(CancellationToken.None), second.PollDueOnceAsync(CancellationToken.None));

        Assert.Equal(12, counts.Sum());
        Assert.All(host.Fleet.Instances, i => Assert.Single(i.Transcript.TextsOf("login")));
        await using var connection = await host.Services.GetRequiredService<IDbConnectionFactory>().OpenAsync(CancellationToken.None);
        var pollsPerInstance = await connection.QueryAsync<long>("SELECT COUNT(*) FROM polls GROUP BY instance_id;");
        Assert.All(pollsPerInstance, n => Assert.Equal(1, n));
        Assert.Equal(12, pollsPerInstance.Count());
    }
}
