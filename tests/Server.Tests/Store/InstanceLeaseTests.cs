using Dapper;
using IfiDashboard.Store.Audit;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Store.Ingestion;

namespace IfiDashboard.Server.Tests.Store;

public sealed class InstanceLeaseTests
{
    static readonly TimeSpan Lease = TimeSpan.FromMinutes(2);
    static readonly CancellationToken None = CancellationToken.None;

    static async Task<long[]> AddInstancesAsync(TestStore store, int count)
    {
        var ids = new long[count];
        for (var i = 0; i < count; i++)
            ids[i] = await store.Instances.AddAsync(TestData.Registration($"SQL{i:D3}"), None);
        return ids;
    }

    /// <summary>
    /// A lease reads the instances table through indexes (migration 0033): before, each lease request counted the
    /// collector's leases twice and sorted every due instance, three scans of the whole table (14-21 ms each at 40,000
    /// instances on PostgreSQL, a quarter of its processor per snapshot in the ingestion replay). The plans are asked
    /// for with scans and sorts priced out of reach where the store allows it, so that an index serving the statement
    /// is chosen whatever the table's size, and its absence shows as a scan or a sort.
    /// </summary>
    [Theory, StoreProviders]
    public async Task A_lease_and_the_count_of_the_leases_held_are_read_through_indexes_in_the_lease_order(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        await AddInstancesAsync(store, 3);
        await using var connection = await store.OpenAsync();
        var now = store.Clock.GetUtcNow();
        var lease = await PlanAsync(connection, StoreInstanceSource.LeaseDueSql, new
        {
            collectorName = "collector-a", leaseExpiresAt = now + Lease, now, silentSince = now, mayTakeOver = 1L, maxCount = 10L,
        });
        var held = await PlanAsync(connection, StoreInstanceSource.HeldSql, new { collectorName = "collector-a", now });

        Assert.Contains("ix_instances_lease_order", lease, StringComparison.Ordinal);
        Assert.Contains("ix_instances_lease_holder", held, StringComparison.Ordinal);
        foreach (var plan in new[] { lease, held })
        {
            // PostgreSQL's whole-table read and sort; SQLite's.
            Assert.DoesNotContain("Seq Scan on instances", plan, StringComparison.Ordinal);
            Assert.DoesNotContain("Sort", plan, StringComparison.Ordinal);
            Assert.DoesNotMatch(@"SCAN instances(\n|$)", plan);
            Assert.DoesNotContain("TEMP B-TREE", plan, StringComparison.Ordinal);
        }
    }

    static async Task<string> PlanAsync(System.Data.Common.DbConnection connection, string sql, object parameters)
    {
        if (connection is Npgsql.NpgsqlConnection)
        {
            await connection.ExecuteAsync("SET enable_seqscan = off; SET enable_sort = off;");
            return string.Join("\n", await connection.QueryAsync<string>("EXPLAIN " + sql, parameters));
        }
        var rows = await connection.QueryAsync<(long Id, long Parent, long NotUsed, string Detail)>("EXPLAIN QUERY PLAN " + sql, parameters);
        return string.Join("\n", rows.Select(r => r.Detail));
    }

    [Theory, StoreProviders]
    public async Task Two_collectors_leasing_at_once_never_get_the_same_instance(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        await AddInstancesAsync(store, 30);

        for (var round = 0; round < 5; round++)
        {
            // Each source opens its own connection per call; Task.Run puts the two calls on two threads at once.
            var a = store.NewSource();
            var b = store.NewSource();
            var leased = await Task.WhenAll(
                Task.Run(() => a.LeaseDueAsync("collector-a", 20, Lease, None)),
                Task.Run(() => b.LeaseDueAsync("collector-b", 20, Lease, None)));

            var ids = leased.SelectMany(l => l).Select(i => i.Id).ToList();
            Assert.Equal(ids.Count, ids.Distinct().Count());
            Assert.Equal(30, ids.Count);

            store.Clock.Advance(Lease + TimeSpan.FromSeconds(1));
        }
    }

    [Theory, StoreProviders]
    public async Task Leased_instance_is_not_handed_out_again_while_the_lease_holds(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        await AddInstancesAsync(store, 3);
        var source = store.NewSource();
        await source.LeaseDueAsync("collector-a", 10, Lease, None);

        store.Clock.Advance(Lease - TimeSpan.FromSeconds(1));
        var second = await source.LeaseDueAsync("collector-b", 10, Lease, None);

        Assert.Empty(second);
    }

    [Theory, StoreProviders]
    public async Task Expired_lease_stays_with_its_collector_while_that_one_is_heard_from(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var ids = await AddInstancesAsync(store, 1);
        var source = store.NewSource();
        await source.LeaseDueAsync("collector-a", 10, Lease, None);
        await source.LeaseDueAsync("collector-b", 10, Lease, None);

        store.Clock.Advance(TimeSpan.FromSeconds(60));
        await source.LeaseDueAsync("collector-a", 10, Lease, None);
        store.Clock.Advance(Lease - TimeSpan.FromSeconds(59));
        var rival = await source.LeaseDueAsync("collector-b", 10, Lease, None);
        var own = await source.LeaseDueAsync("collector-a", 10, Lease, None);

        Assert.Empty(rival);
        Assert.Equal(ids, own.Select(i => i.Id));
    }

    [Theory, StoreProviders]
    public async Task Instance_of_a_silent_collector_goes_to_one_heard_from_throughout_the_takeover_delay(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var ids = await AddInstancesAsync(store, 1);
        var source = store.NewSource();
        await source.LeaseDueAsync("collector-a", 10, Lease, None);
        var delay = new IfiDashboard.Store.Ingestion.IngestionOptions().TakeoverDelay;

        await source.LeaseDueAsync("collector-b", 10, Lease, None);
        store.Clock.Advance(delay / 2);
        await source.LeaseDueAsync("collector-b", 10, Lease, None);
        store.Clock.Advance(delay / 2 + TimeSpan.FromSeconds(1));
        var newcomer = await source.LeaseDueAsync("collector-c", 10, Lease, None);
        var standby = await source.LeaseDueAsync("collector-b", 10, Lease, None);

        // collector-c was first heard from after collector-a fell silent: as after an outage, it must wait.
        Assert.Empty(newcomer);
        Assert.Equal(ids, standby.Select(i => i.Id));
    }

    [Theory, StoreProviders]
    public async Task At_most_max_count_are_leased_longest_waiting_first(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var ids = await AddInstancesAsync(store, 3);
        var source = store.NewSource();
        var all = await source.LeaseDueAsync("collector-a", 3, Lease, None);
        await source.CompleteAsync(ids[0], "collector-a", store.Clock.GetUtcNow().AddMinutes(2), None);
        await source.CompleteAsync(ids[1], "collector-a", store.Clock.GetUtcNow().AddMinutes(1), None);
        await source.CompleteAsync(ids[2], "collector-a", store.Clock.GetUtcNow().AddMinutes(3), None);

        store.Clock.Advance(TimeSpan.FromMinutes(5));
        var two = await source.LeaseDueAsync("collector-a", 2, Lease, None);

        Assert.Equal(3, all.Count);
        Assert.Equal([ids[1], ids[0]], two.Select(i => i.Id));
    }

    [Theory, StoreProviders]
    public async Task Instance_is_not_due_before_its_next_poll_time(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var ids = await AddInstancesAsync(store, 1);
        var source = store.NewSource();
        await source.LeaseDueAsync("collector-a", 10, Lease, None);
        await source.CompleteAsync(ids[0], "collector-a", store.Clock.GetUtcNow().AddMinutes(5), None);

        store.Clock.Advance(TimeSpan.FromMinutes(4));
        var early = await source.LeaseDueAsync("collector-a", 10, Lease, None);
        store.Clock.Advance(TimeSpan.FromMinutes(1));
        var onTime = await source.LeaseDueAsync("collector-a", 10, Lease, None);

        Assert.Empty(early);
        Assert.Equal(ids, onTime.Select(i => i.Id));
    }

    [Theory, StoreProviders]
    public async Task Completing_releases_only_the_collectors_own_lease(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var ids = await AddInstancesAsync(store, 1);
        var source = store.NewSource();
        var delay = new IfiDashboard.Store.Ingestion.IngestionOptions().TakeoverDelay;
        await source.LeaseDueAsync("collector-a", 10, Lease, None);
        await source.LeaseDueAsync("collector-b", 10, Lease, None);
        store.Clock.Advance(delay / 2);
        await source.LeaseDueAsync("collector-b", 10, Lease, None);
        store.Clock.Advance(delay / 2 + TimeSpan.FromSeconds(1));
        await source.LeaseDueAsync("collector-b", 10, Lease, None);

        // collector-a finishes late: its lease has passed to collector-b, which must keep it.
        await source.CompleteAsync(ids[0], "collector-a", store.Clock.GetUtcNow(), None);
        var whileBHolds = await source.LeaseDueAsync("collector-c", 10, Lease, None);
        await source.CompleteAsync(ids[0], "collector-b", store.Clock.GetUtcNow(), None);
        var afterBCompletes = await source.LeaseDueAsync("collector-b", 10, Lease, None);

        Assert.Empty(whileBHolds);
        Assert.Equal(ids, afterBCompletes.Select(i => i.Id));
    }

    [Theory, StoreProviders]
    public async Task Retired_instance_is_never_leased(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var ids = await AddInstancesAsync(store, 2);
        await store.Instances.RetireAsync(ids[0], None);

        var leased = await store.NewSource().LeaseDueAsync("collector-a", 10, Lease, None);

        Assert.Equal([ids[1]], leased.Select(i => i.Id));
    }

    [Theory, StoreProviders]
    public async Task Verify_now_makes_a_scheduled_instance_due_at_once(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var ids = await AddInstancesAsync(store, 2);
        var source = store.NewSource();
        await source.LeaseDueAsync("collector-a", 2, Lease, None);
        foreach (var id in ids)
            await source.CompleteAsync(id, "collector-a", store.Clock.GetUtcNow().AddMinutes(5), None);

        await new PollRequests(store.Connections, store.Clock, store.Audit)
            .RequestAsync([(ids[0], "SQL000")], "instance SQL000", AuditActor.System, None);
        var due = await source.LeaseDueAsync("collector-a", 2, Lease, None);

        Assert.Equal([ids[0]], due.Select(i => i.Id));
    }

    [Theory, StoreProviders]
    public async Task Verify_now_during_a_lease_makes_the_instance_due_again_when_the_lease_completes(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var ids = await AddInstancesAsync(store, 1);
        var source = store.NewSource();
        await source.LeaseDueAsync("collector-a", 1, Lease, None);

        store.Clock.Advance(TimeSpan.FromSeconds(5));
        await new PollRequests(store.Connections, store.Clock, store.Audit)
            .RequestAsync([(ids[0], "SQL000")], "instance SQL000", AuditActor.System, None);
        var whileLeased = await source.LeaseDueAsync("collector-b", 1, Lease, None);
        store.Clock.Advance(TimeSpan.FromSeconds(5));
        await source.CompleteAsync(ids[0], "collector-a", store.Clock.GetUtcNow().AddMinutes(5), None);
        // The instance stays with the collector that leased it last (collector-b may not take it while collector-a
        // is heard from): verify now makes it due for collector-a again.
        var afterwards = await source.LeaseDueAsync("collector-a", 1, Lease, None);
        await source.CompleteAsync(ids[0], "collector-a", store.Clock.GetUtcNow().AddMinutes(5), None);
        var thenScheduled = await source.LeaseDueAsync("collector-a", 1, Lease, None);

        Assert.Empty(whileLeased);
        Assert.Equal(ids, afterwards.Select(i => i.Id));
        Assert.Empty(thenScheduled);
    }
}
