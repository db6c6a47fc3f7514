using IfiDashboard.Collector.Standalone;
using IfiDashboard.Server.Tests.Alerts;
using IfiDashboard.Simulator.Scenarios;
using IfiDashboard.Tests.Support;
using Microsoft.Extensions.Logging;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// A standalone collector given several server URLs (<c>Collector:ServerUrls</c>), over real TCP to a real server:
/// each URL is a relay the test takes down and brings up, as a server stopped and started.
/// </summary>
public sealed class ServerFailoverTests
{
    [Fact]
    public async Task A_request_goes_to_the_next_server_when_one_does_not_answer_and_fails_only_when_none_does()
    {
        await using var host = new DashboardHost(new ScenarioInstance { Name = "failover-1", Profile = "2019" });
        var serverPort = host.StartOnFreePort();
        await host.RegisterFleetAsync();
        await using var first = new SwitchableRelay(LoopbackPorts.Unassigned(), serverPort);
        await using var second = new SwitchableRelay(LoopbackPorts.Unassigned(), serverPort);
        using var logs = new CapturedLogs();
        using var loggers = LoggerFactory.Create(logging => logging.AddProvider(logs));
        var failover = new ServerFailover([new Uri($"http://127.0.0.1:{first.Port}/"), new Uri($"http://127.0.0.1:{second.Port}/")],
            loggers.CreateLogger<ServerFailover>());
        var handler = failover.CreateHandler();
        handler.InnerHandler = new SocketsHttpHandler();
        using var http = new HttpClient(handler) { BaseAddress = failover.BaseAddress, Timeout = failover.RequestTimeout };
        http.DefaultRequestHeaders.Add("X-Api-Key", DashboardHost.ApiKey);
        var server = new CollectorApiClient(http);
        const string name = DashboardHost.RemoteCollector;

        second.Up();
        var leased = await server.LeaseDueAsync(name, 10, TimeSpan.FromMinutes(2), CancellationToken.None);
        var switched = logs.All;
        first.Up();
        await second.DownAsync();
        await server.CompleteAsync(Assert.Single(leased).Id, name, DateTimeOffset.UtcNow.AddMinutes(5), CancellationToken.None);
        await first.DownAsync();
        var none = await Assert.ThrowsAnyAsync<HttpRequestException>(() => server.LeaseDueAsync(name, 10, TimeSpan.FromMinutes(2), CancellationToken.None));

        Assert.Contains($"The server http://127.0.0.1:{first.Port}/ does not answer; using http://127.0.0.1:{second.Port}/", switched, StringComparison.Ordinal);
        Assert.Contains($"The server http://127.0.0.1:{second.Port}/ does not answer; using http://127.0.0.1:{first.Port}/", logs.All, StringComparison.Ordinal);
        Assert.Null(none.StatusCode); // no answer at all: the collector rides through the outage (OutageRideThrough)
    }
}
