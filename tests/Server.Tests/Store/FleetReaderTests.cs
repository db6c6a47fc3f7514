using IfiDashboard.Store.Dashboard;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Server.Tests.Store;

public sealed class FleetReaderTests
{
    static readonly CancellationToken None = CancellationToken.None;

    [Theory, StoreProviders]
    public async Task Never_polled_instance_lists_as_unknown_not_polled_yet(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        await store.Instances.AddAsync(TestData.Registration("SQL01"), None);

        var (registration, row, _) = Assert.Single(await store.ActiveInstancesAsync());

        Assert.Equal(IfiState.Unknown, row.IfiState);
        Assert.Equal("not polled yet", row.IfiUnknownReason);
        Assert.Null(row.LastPollAt);
        Assert.Null(row.LastOutcome);
        Assert.Equal("Production", registration.Environment);
        Assert.Equal("dba-team", registration.Owner);
    }

    [Theory, StoreProviders]
    public async Task Instance_list_holds_active_instances_by_name(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        await store.Instances.AddAsync(TestData.Registration("SQL02"), None);
        var retired = await store.Instances.AddAsync(TestData.Registration("SQL00"), None);
        await store.Instances.AddAsync(TestData.Registration("SQL01"), None);
        await store.Instances.RetireAsync(retired, None);

        var rows = await store.ActiveInstancesAsync();

        Assert.Equal(["SQL01", "SQL02"], rows.Select(r => r.Registration.Name));
    }

    [Theory, StoreProviders]
    public async Task Counts_split_active_instances_by_ifi_state(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var on = await store.Instances.AddAsync(TestData.Registration("ON"), None);
        var off = await store.Instances.AddAsync(TestData.Registration("OFF"), None);
        var down = await store.Instances.AddAsync(TestData.Registration("DOWN"), None);
        await store.Instances.AddAsync(TestData.Registration("NEW"), None);
        var retired = await store.Instances.AddAsync(TestData.Registration("OLD"), None);
        await store.Snapshots.WriteAsync(TestData.Good(on, TestStore.Start, ifi: "Y"), None);
        await store.Snapshots.WriteAsync(TestData.Good(off, TestStore.Start, ifi: "N"), None);
        await store.Snapshots.WriteAsync(TestData.Unreachable(down, TestStore.Start), None);
        await store.Snapshots.WriteAsync(TestData.Good(retired, TestStore.Start), None);
        await store.Instances.RetireAsync(retired, None);

        var counts = await store.Queries.CountsAsync(None);

        Assert.Equal(new FleetCounts(Total: 4, Polled: 3, Enabled: 1, Disabled: 1, Unknown: 2), counts);
    }

    [Theory, StoreProviders]
    public async Task Counts_of_an_empty_fleet_are_zero(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);

        Assert.Equal(new FleetCounts(0, 0, 0, 0, 0), await store.Queries.CountsAsync(None));
    }

    [Theory, StoreProviders]
    public async Task Recent_polls_are_newest_first_and_limited(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var id = await store.Instances.AddAsync(TestData.Registration("SQL01"), None);
        var first = TestData.Good(id, TestStore.Start);
        var second = TestData.Unreachable(id, TestStore.Start.AddMinutes(5));
        var third = TestData.Good(id, TestStore.Start.AddMinutes(10), ifi: "N");
        foreach (var snapshot in new[] { first, second, third })
            await store.Snapshots.WriteAsync(snapshot, None);

        var polls = await store.Queries.RecentPollsAsync(id, 2, None);

        Assert.Equal([third.SnapshotId, second.SnapshotId], polls.Select(p => p.SnapshotId));
        Assert.Equal((IfiState.Disabled, true), (polls[0].IfiState, polls[0].IsGood));
        Assert.Equal((OutcomeClass.Unreachable, "unreachable", false), (polls[1].Outcome, polls[1].IfiUnknownReason, polls[1].IsGood));
        Assert.Equal(second.StartedAt, polls[1].StartedAt);
    }
}
