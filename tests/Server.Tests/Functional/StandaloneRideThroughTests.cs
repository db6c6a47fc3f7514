using Dapper;
using IfiDashboard.Collector.Standalone;
using IfiDashboard.Store;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Time.Testing;
using IfiDashboard.Tests.Support;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// A standalone collector through a server outage, over real TCP: the server's port goes dark behind a relay and comes
/// back, with the server's store intact. The collector's own clock is a fake one the test moves.
/// </summary>
public sealed class StandaloneRideThroughTests
{
    static readonly TimeSpan Lease = TimeSpan.FromMinutes(2);

    sealed class Setup : IAsyncDisposable
    {
        public required DashboardHost Host { get; init; }
        public required SwitchableRelay Relay { get; init; }
        public required OutageRideThrough Collector { get; init; }
        public required FakeTimeProvider Clock { get; init; }
        public required HttpClient Http { get; init; }

        public async ValueTask DisposeAsync()
        {
            Http.Dispose();
            await Relay.DisposeAsync();
            await Host.DisposeAsync();
        }
    }

    static async Task<Setup> StartAsync(int rideThroughMinutes = 60)
    {
        var host = new DashboardHost(new ScenarioInstance { Name = "remote", Profile = "2019" });
        var serverPort = host.StartOnFreePort();
        await host.RegisterFleetAsync();
        var relay = new SwitchableRelay(LoopbackPorts.Unassigned(), serverPort);
        relay.Up();
        // The relay refuses connections when down, so the timeout is only a safety net (a loaded machine answers slowly).
        var http = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{relay.Port}/"), Timeout = TimeSpan.FromSeconds(120) };
        http.DefaultRequestHeaders.Add("X-Api-Key", DashboardHost.ApiKey);
        var clock = new FakeTimeProvider(DateTimeOffset.UtcNow);
        var collector = new OutageRideThrough(new CollectorApiClient(http),
            new ServerConnectionOptions { OutageRideThroughMinutes = rideThroughMinutes }, clock, NullLogger<OutageRideThrough>.Instance);
        return new Setup { Host = host, Relay = relay, Collector = collector, Clock = clock, Http = http };
    }

    static async Task<string?> NextPollAtAsync(DashboardHost host, long id)
    {
        await using var connection = await host.Services.GetRequiredService<IDbConnectionFactory>().OpenAsync(CancellationToken.None);
        return await connection.ExecuteScalarAsync<string?>("SELECT next_poll_at FROM instances WHERE id = @id;", new { id });
    }

    [Fact]
    public async Task During_an_outage_the_last_assigned_instances_are_polled_on_schedule_and_afterwards_the_server_keeps_that_schedule()
    {
        await using var setup = await StartAsync();
        var (collector, clock) = (setup.Collector, setup.Clock);
        const string name = DashboardHost.RemoteCollector;

        var leased = await collector.LeaseDueAsync(name, 10, Lease, CancellationToken.None);
        var id = Assert.Single(leased).Id;
        await collector.CompleteAsync(id, name, clock.GetUtcNow().AddMinutes(1), CancellationToken.None);

        await setup.Relay.DownAsync();
        var beforeDue = await collector.LeaseDueAsync(name, 10, Lease, CancellationToken.None);
        clock.Advance(TimeSpan.FromMinutes(2));
        var due = await collector.LeaseDueAsync(name, 10, Lease, CancellationToken.None);
        var whilePolling = await collector.LeaseDueAsync(name, 10, Lease, CancellationToken.None);
        // The poll made during the outage schedules the next one; the server is told when it answers again.
        var scheduled = clock.GetUtcNow().AddMinutes(1);
        await collector.CompleteAsync(id, name, scheduled, CancellationToken.None);
        var unsentDuringOutage = collector.UnsentCompletions;

        setup.Relay.Up();
        clock.Advance(OutageRideThrough.ServerRetryDuringOutage);
        var afterOutage = await collector.LeaseDueAsync(name, 10, Lease, CancellationToken.None);

        Assert.Empty(beforeDue);
        Assert.Equal([id], due.Select(i => i.Id));
        Assert.Empty(whilePolling);
        Assert.Equal(1, unsentDuringOutage);
        Assert.Equal(0, collector.UnsentCompletions);
        // Not due at once on the server: it holds the collector's schedule.
        Assert.Empty(afterOutage);
        Assert.Equal(StoreTime.ToText(scheduled), await NextPollAtAsync(setup.Host, id));
    }

    [Fact]
    public async Task An_instance_remembered_from_before_a_silence_another_collector_could_take_it_in_is_not_polled_in_the_next_outage()
    {
        await using var setup = await StartAsync();
        var (collector, clock) = (setup.Collector, setup.Clock);
        const string name = DashboardHost.RemoteCollector;
        var id = Assert.Single(await collector.LeaseDueAsync(name, 10, Lease, CancellationToken.None)).Id;
        await collector.CompleteAsync(id, name, clock.GetUtcNow().AddMinutes(1), CancellationToken.None);

        // Silent for as long as the server may wait before giving the instance to another collector; then heard
        // from again before the instance is due, so the server leases it nothing.
        await setup.Relay.DownAsync();
        clock.Advance(OutageRideThrough.SilenceThatMayEndTenure);
        var duringFirstOutage = await collector.LeaseDueAsync(name, 10, Lease, CancellationToken.None);
        setup.Relay.Up();
        clock.Advance(OutageRideThrough.ServerRetryDuringOutage);
        var between = await collector.LeaseDueAsync(name, 10, Lease, CancellationToken.None);
        await setup.Relay.DownAsync();
        clock.Advance(TimeSpan.FromMinutes(2));
        var duringSecondOutage = await collector.LeaseDueAsync(name, 10, Lease, CancellationToken.None);

        Assert.Empty(duringFirstOutage);
        Assert.Empty(between);
        // Due by the collector's schedule, but perhaps another collector's by now: polled only once leased again.
        Assert.Empty(duringSecondOutage);
    }

    [Fact]
    public async Task After_the_ride_through_time_polling_stops_and_the_outage_is_an_error_again()
    {
        await using var setup = await StartAsync(rideThroughMinutes: 30);
        var (collector, clock) = (setup.Collector, setup.Clock);
        const string name = DashboardHost.RemoteCollector;
        var id = Assert.Single(await collector.LeaseDueAsync(name, 10, Lease, CancellationToken.None)).Id;
        await collector.CompleteAsync(id, name, clock.GetUtcNow().AddMinutes(5), CancellationToken.None);

        await setup.Relay.DownAsync();
        clock.Advance(TimeSpan.FromMinutes(29));
        var within = await collector.LeaseDueAsync(name, 10, Lease, CancellationToken.None);
        await collector.CompleteAsync(id, name, clock.GetUtcNow().AddMinutes(5), CancellationToken.None);
        clock.Advance(TimeSpan.FromMinutes(5));

        await Assert.ThrowsAsync<HttpRequestException>(() => collector.LeaseDueAsync(name, 10, Lease, CancellationToken.None));
        Assert.Equal([id], within.Select(i => i.Id));
    }
}
