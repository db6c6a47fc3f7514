using Dapper;
using IfiDashboard.Server.Ingestion;
using IfiDashboard.Store.Ingestion;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Server.Tests.Store;

/// <summary>
/// Which delivered polls the store takes from a standalone collector once the instance has passed to another: those
/// made while the collector held it (through an outage, delivered late), as history when a newer poll is stored; never
/// one made after it was taken, nor one from a collector that never held it.
/// </summary>
public sealed class TenureAcceptanceTests
{
    static readonly TimeSpan Lease = TimeSpan.FromMinutes(2);
    static readonly TimeSpan Skew = new IngestionOptions().MaxClockSkew;
    static readonly CancellationToken None = CancellationToken.None;

    [Theory, StoreProviders]
    public async Task A_poll_made_while_the_collector_held_the_instance_is_stored_as_history_after_another_took_it_over(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var id = await store.Instances.AddAsync(TestData.Registration("SQL001"), None);
        var source = store.NewSource();
        var delay = new IngestionOptions().TakeoverDelay;
        await source.LeaseDueAsync("collector-a", 10, Lease, None);
        await source.LeaseDueAsync("collector-b", 10, Lease, None);
        await source.LeaseDueAsync("collector-c", 10, Lease, None);
        // collector-a polls on through an outage only it is cut off by; collector-b is heard from throughout.
        var ridden = TestData.Good(id, TestStore.Start.AddSeconds(90), ifi: "N") with { CollectorName = "collector-a" };
        store.Clock.Advance(delay / 2);
        await source.LeaseDueAsync("collector-b", 10, Lease, None);
        store.Clock.Advance(delay / 2 + TimeSpan.FromSeconds(1));
        var taken = await source.LeaseDueAsync("collector-b", 10, Lease, None);
        var newer = TestData.Good(id, store.Clock.GetUtcNow().AddSeconds(5), ifi: "Y") with { CollectorName = "collector-b" };
        var afterTakeover = TestData.Good(id, store.Clock.GetUtcNow().AddMinutes(1), ifi: "N") with { CollectorName = "collector-a" };
        var forged = TestData.Good(id, TestStore.Start.AddSeconds(90), ifi: "N") with { CollectorName = "collector-c" };

        var newerStored = await store.Snapshots.WriteAsync(newer, "collector-b", None, Skew);
        var riddenStored = await store.Snapshots.WriteAsync(ridden, "collector-a", None, Skew);
        var afterTakeoverStored = await store.Snapshots.WriteAsync(afterTakeover, "collector-a", None, Skew);
        var forgedStored = await store.Snapshots.WriteAsync(forged, "collector-c", None, Skew);

        Assert.Equal(id, Assert.Single(taken).Id);
        Assert.True(newerStored);
        Assert.True(riddenStored);
        Assert.False(afterTakeoverStored);
        Assert.False(forgedStored);
        await using var connection = await store.OpenAsync();
        var stored = (await connection.QueryAsync<string>("SELECT snapshot_id FROM polls WHERE instance_id = @id;", new { id })).ToHashSet();
        Assert.Equal(new[] { newer.SnapshotId.ToString("D"), ridden.SnapshotId.ToString("D") }.Order(), stored.Order());
        // The late poll is history: the current state is still the newer one's.
        Assert.Equal(nameof(IfiState.Enabled), await connection.ExecuteScalarAsync<string>(
            "SELECT ifi_state FROM instance_state WHERE instance_id = @id;", new { id }));
    }
}
