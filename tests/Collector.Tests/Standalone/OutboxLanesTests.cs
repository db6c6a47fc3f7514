using IfiDashboard.Collector.Standalone;
using IfiDashboard.Shared.Hosting;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;

namespace IfiDashboard.Collector.Tests.Standalone;

/// <summary>How delivery splits the outbox: a lane per instance, each oldest first, files of an older release apart.</summary>
[Trait("Tier", "Fast")]
public sealed class OutboxLanesTests : IDisposable
{
    readonly string _directory = Directory.CreateTempSubdirectory("ifi-outbox-lanes-").FullName;

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public async Task Queued_snapshots_form_one_lane_per_instance_oldest_first_and_files_named_by_an_older_release_come_apart()
    {
        using var outbox = new SnapshotOutbox(new OutboxOptions { Directory = _directory }, NullLogger<SnapshotOutbox>.Instance);
        // A file the release before this one queued: its name carries no instance.
        var olderRelease = Path.Combine(_directory, $"{DateTime.UtcNow.AddHours(-1).Ticks:D20}-{Guid.NewGuid():N}.snapshot.json");
        await File.WriteAllTextAsync(olderRelease, "{}");
        var queued = new[] { Snapshot(7), Snapshot(12), Snapshot(7), Snapshot(3), Snapshot(12) };
        foreach (var snapshot in queued)
            await outbox.WriteAsync(snapshot, CancellationToken.None);

        var (unnamed, lanes) = SnapshotOutbox.ByInstance(outbox.Pending());

        Assert.Equal([olderRelease], unnamed);
        var read = await Task.WhenAll(lanes.Select(async lane =>
            await Task.WhenAll(lane.Select(path => SnapshotOutbox.ReadAsync(path, CancellationToken.None)))));
        Assert.Equal([7L, 12L, 3L], read.Select(lane => lane.Select(s => s.InstanceId).Distinct().Single()));
        Assert.Equal(
            [[queued[0].SnapshotId, queued[2].SnapshotId], [queued[1].SnapshotId, queued[4].SnapshotId], [queued[3].SnapshotId]],
            read.Select(lane => lane.Select(s => s.SnapshotId).ToArray()));
    }

    [Theory]
    [InlineData("0")]
    [InlineData("65")]
    [InlineData("-1")]
    public void Deliveries_in_flight_out_of_range_stop_the_start_naming_the_setting(string value)
    {
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["Collector:Outbox:Directory"] = _directory,
            ["Collector:Outbox:MaxDeliveriesInFlight"] = value,
        }).Build();

        var refused = Assert.Throws<InvalidSettingException>(() => new ServiceCollection().AddIfiStandaloneCollector(configuration));

        Assert.Equal("Collector:Outbox:MaxDeliveriesInFlight", refused.Setting);
        Assert.Contains("between 1 and 64", refused.Message, StringComparison.Ordinal);
    }

    static InstanceSnapshot Snapshot(long instanceId) => new()
    {
        SnapshotId = Guid.NewGuid(),
        InstanceId = instanceId,
        StartedAt = DateTimeOffset.UtcNow,
        FinishedAt = DateTimeOffset.UtcNow,
        CollectorName = "lanes",
        Probes = [],
    };
}
