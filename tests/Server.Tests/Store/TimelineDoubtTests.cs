using Dapper;

namespace IfiDashboard.Server.Tests.Store;

/// <summary>
/// A timeline change seen by one poll that disagrees with the instance's recent history is marked with why (issue 27,
/// item 2): IFI or the service account changed with no restart in between, or another collector than the poll before
/// saw it. A change that agrees (a restart under a new account, by the same collector) is not.
/// </summary>
public sealed class TimelineDoubtTests
{
    static readonly CancellationToken None = CancellationToken.None;

    static async Task<List<(string Field, string? Doubt)>> ChangesAsync(TestStore store)
    {
        await using var connection = await store.OpenAsync();
        return [.. await connection.QueryAsync<(string, string?)>("SELECT field, doubt FROM ifi_changes ORDER BY field, id;")];
    }

    [Theory, StoreProviders]
    public async Task Ifi_turned_on_with_no_restart_since_the_poll_before_is_marked(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var id = await store.Instances.AddAsync(TestData.Registration("SQL01"), None);

        await store.Snapshots.WriteAsync(TestData.Good(id, TestStore.Start, ifi: "N"), None);
        await store.Snapshots.WriteAsync(TestData.Good(id, TestStore.Start.AddMinutes(5), ifi: "Y"), None);

        var change = Assert.Single(await ChangesAsync(store));
        Assert.Equal(("ifi_enabled", "IFI changed with no restart of the engine service since the poll before"), change);
    }

    [Theory, StoreProviders]
    public async Task A_change_another_collector_saw_names_both_collectors_and_a_restart_by_the_same_collector_is_not_marked(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var id = await store.Instances.AddAsync(TestData.Registration("SQL01"), None);
        var other = await store.Instances.AddAsync(TestData.Registration("SQL02"), None);

        await store.Snapshots.WriteAsync(TestData.Good(id, TestStore.Start), None);
        await store.Snapshots.WriteAsync(TestData.Good(id, TestStore.Start.AddMinutes(5), engineStarted: TestStore.Start.AddMinutes(3))
            with { CollectorName = "rogue" }, None);
        await store.Snapshots.WriteAsync(TestData.Good(other, TestStore.Start), None);
        await store.Snapshots.WriteAsync(TestData.Good(other, TestStore.Start.AddMinutes(5),
            account: @"CORP\svc-sql$", engineStarted: TestStore.Start.AddMinutes(3)), None);

        var changes = await ChangesAsync(store);
        Assert.Equal(
        [
            ("last_startup_time", "polled by the collector rogue, the poll before by collector-a"),
            ("last_startup_time", null),
            ("service_account", null),
        ], changes);
    }
}
