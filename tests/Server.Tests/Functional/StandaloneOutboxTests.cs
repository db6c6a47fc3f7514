using System.Net;
using System.Net.Sockets;
using IfiDashboard.Collector.Standalone;
using IfiDashboard.Store;
using IfiDashboard.Store.Audit;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Simulator.Scenarios;
using System.Text.Json;
using IfiDashboard.Server.Tests.Alerts;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Time.Testing;
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


    (SnapshotOutbox Outbox, SnapshotOutboxDelivery Delivery) Collector(int port, OutboxOptions? outboxOptions = null,
        HttpMessageHandler? handler = null, TimeProvider? clock = null, ILogger<SnapshotOutboxDelivery>? logger = null)
    {
        var options = outboxOptions ?? new OutboxOptions { Directory = _outbox };
        var outbox = new SnapshotOutbox(options, NullLogger<SnapshotOutbox>.Instance);
        var http = new HttpClient(handler ?? new HttpClientHandler())
        {
            BaseAddress = new Uri($"http://127.0.0.1:{port}/"), Timeout = TimeSpan.FromSeconds(30),
        };
        http.DefaultRequestHeaders.Add("X-Api-Key", DashboardHost.ApiKey);
        var delivery = new SnapshotOutboxDelivery(outbox, new CollectorApiClient(http), options, clock ?? TimeProvider.System,
            logger ?? NullLogger<SnapshotOutboxDelivery>.Instance);
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
        await LeaseBeforeThePollsAsync(host, 1);
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
        await LeaseBeforeThePollsAsync(host, 1);
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
    public async Task A_refusal_that_can_pass_says_why_in_a_note_and_is_sent_again_until_the_server_takes_it()
    {
        await using var host = new DashboardHost(new ScenarioInstance { Name = "remote", Profile = "2019" });
        var port = host.StartOnFreePort();
        var clock = new FakeTimeProvider(DateTimeOffset.UtcNow);
        var (outbox, delivery) = Collector(port, clock: clock);
        using var releaseOutbox = outbox;
        await host.RegisterFleetAsync();
        await LeaseBeforeThePollsAsync(host, 1);
        // A collector whose clock is 3 minutes fast, beyond the server's Ingestion:MaxClockSkew (30 s).
        var fast = Snapshot(instanceId: 1, minutesAgo: -3);
        await outbox.WriteAsync(fast, CancellationToken.None);

        var refused = await delivery.DeliverPendingAsync(CancellationToken.None);
        var note = JsonDocument.Parse(await File.ReadAllTextAsync(Assert.Single(Directory.GetFiles(_outbox, "*" + RefusedSnapshots.NoteExtension)))).RootElement;
        // The administrator allows for the collector's clock; the retry interval has not passed yet, then it has.
        var configuration = (IConfigurationRoot)host.Services.GetRequiredService<IConfiguration>();
        configuration["Ingestion:MaxClockSkew"] = "00:10:00";
        configuration.Reload();
        var beforeRetry = await delivery.DeliverPendingAsync(CancellationToken.None);
        clock.Advance(RefusedSnapshots.RetryInterval);
        var retried = await delivery.DeliverPendingAsync(CancellationToken.None);

        Assert.Equal(0, refused);
        Assert.Equal(400, note.GetProperty("status").GetInt32());
        Assert.Contains("finishedAt", note.GetProperty("reason").GetString(), StringComparison.Ordinal);
        Assert.True(note.GetProperty("retried").GetBoolean());
        Assert.Equal(0, beforeRetry);
        Assert.Equal(1, retried);
        Assert.Empty(Directory.GetFiles(_outbox, "*.refused*"));
        Assert.Contains(fast.SnapshotId.ToString(), await StoreDump.AllTextAsync(host.Services), StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_refusal_that_cannot_pass_is_kept_for_the_operator_and_deleted_after_the_retention_with_one_line()
    {
        await using var host = new DashboardHost(new ScenarioInstance { Name = "remote", Profile = "2019" });
        host.Settings["Ingestion:MaxSnapshotBytes"] = "4096";
        var port = host.StartOnFreePort();
        var clock = new FakeTimeProvider(DateTimeOffset.UtcNow);
        using var logs = new CapturedLogs();
        using var loggers = LoggerFactory.Create(logging => logging.AddProvider(logs));
        var options = new OutboxOptions { Directory = _outbox, RefusedRetentionHours = 24 };
        var (outbox, delivery) = Collector(port, options, clock: clock, logger: loggers.CreateLogger<SnapshotOutboxDelivery>());
        using var releaseOutbox = outbox;
        await host.RegisterFleetAsync();
        await LeaseBeforeThePollsAsync(host, 1);
        // Larger than the server's Ingestion:MaxSnapshotBytes: 413, whenever sent.
        await outbox.WriteAsync(Snapshot(instanceId: 1, minutesAgo: 5) with
        {
            Probes = [new ProbeOutcome(ProbeNames.Connect, OutcomeClass.Unreachable, new string('x', 8192))],
        }, CancellationToken.None);

        await delivery.DeliverPendingAsync(CancellationToken.None);
        var note = JsonDocument.Parse(await File.ReadAllTextAsync(Assert.Single(Directory.GetFiles(_outbox, "*" + RefusedSnapshots.NoteExtension)))).RootElement;
        clock.Advance(RefusedSnapshots.RetryInterval);
        await delivery.DeliverPendingAsync(CancellationToken.None);
        var keptAfterRetryInterval = Directory.GetFiles(_outbox, "*.refused").Length;
        clock.Advance(TimeSpan.FromHours(24));
        await delivery.DeliverPendingAsync(CancellationToken.None);

        Assert.Equal(413, note.GetProperty("status").GetInt32());
        Assert.False(note.GetProperty("retried").GetBoolean());
        Assert.Equal(1, keptAfterRetryInterval);
        Assert.Empty(Directory.GetFiles(_outbox, "*.refused*"));
        Assert.Single(logs.All.Split('\n'), line => line.Contains("Deleted 1 refused snapshots set aside more than 24 h ago", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Snapshots_of_different_instances_are_delivered_side_by_side_and_one_instances_in_order()
    {
        var (host, port) = await LeasedToTheRemoteCollectorAsync("a", "b", "c");
        await using var stopHost = host;
        // The first three requests are held until all three have arrived: delivered one at a time, the first would
        // wait alone and the gate would fail it.
        var gate = new DeliveryGate(hold: 3);
        var (outbox, delivery) = Collector(port, new OutboxOptions { Directory = _outbox, MaxDeliveriesInFlight = 3 }, gate);
        using var releaseOutbox = outbox;
        var (a, b, c) = (host.IdOf("a"), host.IdOf("b"), host.IdOf("c"));
        var older = Snapshot(a, minutesAgo: 10);
        var newer = Snapshot(a, minutesAgo: 5);
        foreach (var snapshot in new[] { older, newer, Snapshot(b, minutesAgo: 9), Snapshot(c, minutesAgo: 8) })
            await outbox.WriteAsync(snapshot, CancellationToken.None);

        var delivered = await delivery.DeliverPendingAsync(CancellationToken.None);

        Assert.Equal(4, delivered);
        Assert.Empty(outbox.Pending());
        Assert.Equal(3, gate.MostInFlight);
        // One instance's snapshots one after another, oldest first: the newer was sent only once the older was answered.
        Assert.Equal([$"sent {older.SnapshotId}", $"answered {older.SnapshotId}", $"sent {newer.SnapshotId}", $"answered {newer.SnapshotId}"],
            gate.Events.Where(e => e.EndsWith(older.SnapshotId.ToString(), StringComparison.Ordinal)
                                   || e.EndsWith(newer.SnapshotId.ToString(), StringComparison.Ordinal)));
        var store = await StoreDump.AllTextAsync(host.Services);
        Assert.Contains(newer.SnapshotId.ToString(), store, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_server_that_goes_away_mid_round_leaves_every_undelivered_snapshot_queued()
    {
        var (host, port) = await LeasedToTheRemoteCollectorAsync("a", "b");
        await using var stopHost = host;
        // The first snapshot of instance b finds the server gone (a refused connection, as when it stops).
        var (a, b) = (host.IdOf("a"), host.IdOf("b"));
        var lost = Snapshot(b, minutesAgo: 9);
        var gate = new DeliveryGate(hold: 0) { Unreachable = lost.SnapshotId };
        var (outbox, delivery) = Collector(port, new OutboxOptions { Directory = _outbox, MaxDeliveriesInFlight = 2 }, gate);
        using var releaseOutbox = outbox;
        await outbox.WriteAsync(Snapshot(a, minutesAgo: 10), CancellationToken.None);
        await outbox.WriteAsync(lost, CancellationToken.None);
        await outbox.WriteAsync(Snapshot(b, minutesAgo: 5), CancellationToken.None);

        await Assert.ThrowsAsync<HttpRequestException>(() => delivery.DeliverPendingAsync(CancellationToken.None));

        // Instance b's lane stopped at its first snapshot: both of b's are still queued, in order; a's went or waits.
        var queued = await Task.WhenAll(outbox.Pending().Select(p => SnapshotOutbox.ReadAsync(p, CancellationToken.None)));
        Assert.Equal([lost.SnapshotId], queued.Where(s => s.InstanceId == b).Select(s => s.SnapshotId).Take(1));
        Assert.Equal(2, queued.Count(s => s.InstanceId == b));
        var store = await StoreDump.AllTextAsync(host.Services);
        Assert.DoesNotContain(lost.SnapshotId.ToString(), store, StringComparison.Ordinal);
    }

    /// <summary>
    /// Leases instances to the remote collector as it did before it made the polls these tests deliver (they are dated
    /// up to 10 minutes back): the server takes a snapshot only of a poll started while its collector held the instance.
    /// </summary>
    static Task LeaseBeforeThePollsAsync(DashboardHost host, int count) =>
        new StoreInstanceSource(host.Services.GetRequiredService<IDbConnectionFactory>(), new FakeTimeProvider(DateTimeOffset.UtcNow.AddMinutes(-15)),
                host.Services.GetRequiredService<AuditLog>())
            .LeaseDueAsync(DashboardHost.RemoteCollector, count, TimeSpan.FromMinutes(1), CancellationToken.None);

    /// <summary>A started server whose instances (one simulated instance each) are leased to the remote collector.</summary>
    static async Task<(DashboardHost Host, int Port)> LeasedToTheRemoteCollectorAsync(params string[] names)
    {
        var host = new DashboardHost([.. names.Select(name => new ScenarioInstance { Name = name, Profile = "2019" })]);
        var port = host.StartOnFreePort();
        await host.RegisterFleetAsync();
        await LeaseBeforeThePollsAsync(host, names.Length);
        return (host, port);
    }

    /// <summary>
    /// Passes requests to the real server and records, per snapshot, when it was sent and answered. The first
    /// <c>hold</c> requests wait until that many are in flight (20 s at most, then the request fails saying so);
    /// <see cref="Unreachable"/> names a snapshot whose request fails as a refused connection does.
    /// </summary>
    sealed class DeliveryGate(int hold) : DelegatingHandler(new HttpClientHandler())
    {
        readonly TaskCompletionSource _full = new(TaskCreationOptions.RunContinuationsAsynchronously);
        readonly System.Collections.Concurrent.ConcurrentQueue<string> _events = new();
        int _arrived, _inFlight, _mostInFlight;

        public Guid? Unreachable { get; init; }
        public int MostInFlight => Volatile.Read(ref _mostInFlight);
        public IReadOnlyList<string> Events => _events.ToList();

        protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            var snapshot = System.Text.Json.JsonSerializer.Deserialize<InstanceSnapshot>(
                await request.Content!.ReadAsStringAsync(cancellationToken), System.Text.Json.JsonSerializerOptions.Web)!;
            if (snapshot.SnapshotId == Unreachable)
                throw new HttpRequestException("Connection refused (the test's server went away)");
            var inFlight = Interlocked.Increment(ref _inFlight);
            InterlockedMax(ref _mostInFlight, inFlight);
            try
            {
                if (Interlocked.Increment(ref _arrived) <= hold)
                {
                    if (Volatile.Read(ref _arrived) >= hold) _full.TrySetResult();
                    try
                    {
                        await _full.Task.WaitAsync(TimeSpan.FromSeconds(20), cancellationToken);
                    }
                    catch (TimeoutException)
                    {
                        throw new InvalidOperationException($"Only {Volatile.Read(ref _arrived)} of {hold} deliveries were in flight together.");
                    }
                }
                _events.Enqueue($"sent {snapshot.SnapshotId}");
                var response = await base.SendAsync(request, cancellationToken);
                _events.Enqueue($"answered {snapshot.SnapshotId}");
                return response;
            }
            finally
            {
                Interlocked.Decrement(ref _inFlight);
            }
        }

        static void InterlockedMax(ref int target, int value)
        {
            for (var seen = Volatile.Read(ref target); value > seen; seen = Volatile.Read(ref target))
                if (Interlocked.CompareExchange(ref target, value, seen) == seen) return;
        }
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
