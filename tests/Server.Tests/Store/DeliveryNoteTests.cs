using Dapper;
using IfiDashboard.Store;
using IfiDashboard.Store.Collectors;
using IfiDashboard.Store.Ingestion;

namespace IfiDashboard.Server.Tests.Store;

/// <summary>
/// A collector's delivery note (<see cref="CollectorStore.HeardDeliveringAsync"/>, every 10 s per collector) writes
/// that collector's row only: a store-wide write there made every snapshot behind it wait.
/// </summary>
public sealed class DeliveryNoteTests
{
    static readonly CancellationToken None = CancellationToken.None;
    static readonly TimeSpan TakeoverDelay = new IngestionOptions().TakeoverDelay;

    static async Task<DateTimeOffset?> LastDeliveryAtAsync(TestStore store, string collector)
    {
        await using var reader = await store.OpenAsync();
        return await reader.QuerySingleOrDefaultAsync<DateTimeOffset?>(
            "SELECT last_delivery_at FROM collectors WHERE name = @collector;", new { collector });
    }

    [Theory, StoreProviders]
    public async Task A_delivery_is_noted_while_a_snapshot_or_a_store_wide_write_is_being_written(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var instance = await store.Instances.AddAsync(TestData.Registration("SQLHELD01"), None);
        var collectors = new CollectorStore(store.Connections, store.Clock);
        // SQLite's one writer cannot hold a write while another goes through: nothing is held there.
        var postgres = store.Connections.Dialect.IsPostgres;

        await using (var snapshot = await store.OpenAsync())
        await using (postgres ? await snapshot.BeginInstanceWriteAsync(instance, None) : null)
            await collectors.HeardDeliveringAsync("collector-a", TakeoverDelay, None);
        Assert.Equal(store.Clock.GetUtcNow(), await LastDeliveryAtAsync(store, "collector-a"));

        store.Clock.Advance(CollectorStore.DeliveryRefresh);
        await using (var lease = await store.OpenAsync())
        await using (postgres ? await lease.BeginWriteAsync(None) : null)
            await collectors.HeardDeliveringAsync("collector-a", TakeoverDelay, None);
        Assert.Equal(store.Clock.GetUtcNow(), await LastDeliveryAtAsync(store, "collector-a"));
    }

    // The one case that still takes the store-wide path: each silence mail has one "back" mail.
    [Theory, StoreProviders]
    public async Task A_collector_whose_silence_was_mailed_is_mailed_back_once_by_its_deliveries(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var source = store.NewSource();
        var collectors = new CollectorStore(store.Connections, store.Clock);
        await source.LeaseDueAsync("collector-a", 1, TimeSpan.FromMinutes(1), None);
        await source.LeaseDueAsync("collector-b", 1, TimeSpan.FromMinutes(1), None);
        // collector-b, heard from throughout the takeover delay, finds collector-a silent.
        store.Clock.Advance(TakeoverDelay / 2);
        await source.LeaseDueAsync("collector-b", 1, TimeSpan.FromMinutes(1), None);
        store.Clock.Advance(TakeoverDelay / 2 + TimeSpan.FromSeconds(1));
        await source.LeaseDueAsync("collector-b", 1, TimeSpan.FromMinutes(1), None);
        Assert.Equal(1, await CountMailsAsync(store, "CollectorSilent"));

        store.Clock.Advance(TimeSpan.FromSeconds(1));
        await collectors.HeardDeliveringAsync("collector-a", TakeoverDelay, None);
        var back = store.Clock.GetUtcNow();
        store.Clock.Advance(CollectorStore.DeliveryRefresh);
        await collectors.HeardDeliveringAsync("collector-a", TakeoverDelay, None);

        Assert.Equal(1, await CountMailsAsync(store, "CollectorBack"));
        Assert.Equal(store.Clock.GetUtcNow(), await LastDeliveryAtAsync(store, "collector-a"));
        await using var reader = await store.OpenAsync();
        Assert.Equal(back, await reader.QuerySingleAsync<DateTimeOffset>(
            "SELECT active_since FROM collectors WHERE name = 'collector-a';"));
    }

    static async Task<long> CountMailsAsync(TestStore store, string kind)
    {
        await using var reader = await store.OpenAsync();
        return await reader.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM alert_outbox WHERE kind = @kind;", new { kind });
    }
}
