using System.Net;
using System.Net.Sockets;
using IfiDashboard.Collector.Standalone;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;
using IfiDashboard.Tests.Support;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// The standalone collector's outbox against the real server over real TCP: while the server is down snapshots wait on
/// disk; when it is back each is delivered once, late, not lost and not doubled.
/// </summary>
public sealed class StandaloneOutboxTests : IDisposable
{
    readonly string _outbox = Directory.CreateTempSubdirectory("ifi-outbox-").FullName;

    public void Dispose() => Directory.Delete(_outbox, recursive: true);


    (SnapshotOutbox Outbox, SnapshotOutboxDelivery Delivery) Collector(int port)
    {
        var options = new OutboxOptions { Directory = _outbox };
        var outbox = new SnapshotOutbox(options, NullLogger<SnapshotOutbox>.Instance);
        var http = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{port}/"), Timeout = TimeSpan.FromSeconds(10) };
        http.DefaultRequestHeaders.Add("X-Api-Key", DashboardHost.ApiKey);
        var delivery = new SnapshotOutboxDelivery(outbox, new CollectorApiClient(http), options, TimeProvider.System, NullLogger<SnapshotOutboxDelivery>.Instance);
        return (outbox, delivery);
    }

    [Fact]
    public async Task Snapshots_wait_on_disk_while_the_server_is_down_and_arrive_once_when_it_is_back()
    {
        var port = LoopbackPorts.Unassigned();
        var (outbox, delivery) = Collector(port);
        using var releaseOutbox = outbox;
        await using var host = new DashboardHost(new ScenarioInstance { Name = "remote", Profile = "2019" });
        host.UseKestrel(port);

        // Server down: nothing listens on the port yet.
        var first = Snapshot(instanceId: 1, minutesAgo: 10);
        var second = Snapshot(instanceId: 1, minutesAgo: 5);
        await outbox.WriteAsync(first, CancellationToken.None);
        await outbox.WriteAsync(second, CancellationToken.None);
        await Assert.ThrowsAsync<HttpRequestException>(() => delivery.DeliverPendingAsync(CancellationToken.None));
        Assert.Equal(2, outbox.Pending().Count);

        // Server back.
        host.StartServer();
        await host.RegisterFleetAsync();
        // The collector had leased the instance before it polled: the server takes snapshots of leased instances only.
        await host.Services.GetRequiredService<IInstanceSource>()
            .LeaseDueAsync(DashboardHost.RemoteCollector, 1, TimeSpan.FromMinutes(1), CancellationToken.None);
        var delivered = await delivery.DeliverPendingAsync(CancellationToken.None);
        // The same snapshot delivered again (a collector that stopped before deleting the file) is stored once.
        await outbox.WriteAsync(second, CancellationToken.None);
        var redelivered = await delivery.DeliverPendingAsync(CancellationToken.None);

        Assert.Equal(2, delivered);
        Assert.Equal(1, redelivered);
        Assert.Empty(outbox.Pending());
        var store = await StoreDump.AllTextAsync(host.Services);
        Assert.Single(store.Split('\n'), l => l.Contains(first.SnapshotId.ToString(), StringComparison.Ordinal));
        Assert.Single(store.Split('\n'), l => l.Contains(second.SnapshotId.ToString(), StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_snapshot_the_server_refuses_for_good_is_set_aside_and_the_queue_behind_it_is_delivered()
    {
        await using var host = new DashboardHost(new ScenarioInstance { Name = "remote", Profile = "2019" });
        var port = host.StartOnFreePort();
        var (outbox, delivery) = Collector(port);
        using var releaseOutbox = outbox;
        await host.RegisterFleetAsync();
        await host.Services.GetRequiredService<IInstanceSource>()
            .LeaseDueAsync(DashboardHost.RemoteCollector, 1, TimeSpan.FromMinutes(1), CancellationToken.None);
        // Dated an hour ahead of the server's clock (a collector with a wrong clock): refused (400) however often sent.
        var futureDated = Snapshot(instanceId: 1, minutesAgo: -60);
        await outbox.WriteAsync(futureDated, CancellationToken.None);
        var leased = Snapshot(instanceId: 1, minutesAgo: 5);
        await outbox.WriteAsync(leased, CancellationToken.None);

        var delivered = await delivery.DeliverPendingAsync(CancellationToken.None);

        Assert.Equal(1, delivered);
        Assert.Empty(outbox.Pending());
        Assert.Single(Directory.GetFiles(_outbox, "*.refused"));
        var store = await StoreDump.AllTextAsync(host.Services);
        Assert.Contains(leased.SnapshotId.ToString(), store, StringComparison.Ordinal);
        Assert.DoesNotContain(futureDated.SnapshotId.ToString(), store, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Full_outbox_drops_the_oldest_and_counts_it()
    {
        var options = new OutboxOptions { Directory = _outbox, MaxSnapshots = 2 };
        using var outbox = new SnapshotOutbox(options, NullLogger<SnapshotOutbox>.Instance);
        var snapshots = Enumerable.Range(0, 3).Select(i => Snapshot(1, 10 - i)).ToList();

        foreach (var snapshot in snapshots) await outbox.WriteAsync(snapshot, CancellationToken.None);

        Assert.Equal(1, outbox.Dropped);
        var kept = await Task.WhenAll(outbox.Pending().Select(p => SnapshotOutbox.ReadAsync(p, CancellationToken.None)));
        Assert.Equal(snapshots.Skip(1).Select(s => s.SnapshotId), kept.Select(s => s.SnapshotId));
    }

    static InstanceSnapshot Snapshot(long instanceId, int minutesAgo) => new()
    {
        SnapshotId = Guid.NewGuid(),
        InstanceId = instanceId,
        StartedAt = DateTimeOffset.UtcNow.AddMinutes(-minutesAgo),
        FinishedAt = DateTimeOffset.UtcNow.AddMinutes(-minutesAgo).AddSeconds(1),
        CollectorName = DashboardHost.RemoteCollector,
        Probes = [new ProbeOutcome(ProbeNames.Connect, OutcomeClass.Unreachable, "test")],
    };
}
