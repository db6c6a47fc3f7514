using Dapper;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Server.Tests.Store;

public sealed class SnapshotStoreTests
{
    static readonly CancellationToken None = CancellationToken.None;

    static async Task<(TestStore Store, long Id)> StoreWithInstanceAsync(StoreProvider provider)
    {
        var store = await TestStore.CreateMigratedAsync(provider);
        var id = await store.Instances.AddAsync(TestData.Registration("SQL01"), None);
        return (store, id);
    }

    static async Task<long> CountAsync(TestStore store, string sql)
    {
        await using var connection = await store.OpenAsync();
        return await connection.ExecuteScalarAsync<long>(sql);
    }

    [Theory, StoreProviders]
    public async Task Snapshot_written_twice_is_stored_once(StoreProvider provider)
    {
        var (store, id) = await StoreWithInstanceAsync(provider);
        await using var _ = store;
        var snapshot = TestData.Good(id, TestStore.Start);

        await store.Snapshots.WriteAsync(snapshot, None);
        await store.Snapshots.WriteAsync(snapshot, None);

        Assert.Equal(1, await CountAsync(store, "SELECT COUNT(*) FROM polls;"));
        Assert.Equal(3, await CountAsync(store, "SELECT COUNT(*) FROM probe_outcomes;"));
        Assert.Equal(2, await CountAsync(store, "SELECT COUNT(*) FROM service_snapshots;"));
    }

    [Theory, StoreProviders]
    public async Task Every_service_row_is_stored_with_the_engine_marked(StoreProvider provider)
    {
        var (store, id) = await StoreWithInstanceAsync(provider);
        await using var _ = store;

        await store.Snapshots.WriteAsync(TestData.Good(id, TestStore.Start), None);

        await using var connection = await store.OpenAsync();
        var engine = await connection.QuerySingleAsync<(string Account, string Ifi, long ProcessId, string Started)>(
            "SELECT service_account, ifi_enabled, process_id, last_startup_time FROM service_snapshots WHERE is_engine = 1;");
        Assert.Equal((TestData.EngineAccount, "Y", 4242L, "2026-04-01T06:00:00.0000000Z"), engine);
        Assert.Equal(2, await CountAsync(store, "SELECT COUNT(*) FROM service_snapshots;"));
    }

    [Theory, StoreProviders]
    public async Task Good_poll_sets_identity_account_and_ifi_state(StoreProvider provider)
    {
        var (store, id) = await StoreWithInstanceAsync(provider);
        await using var _ = store;
        var snapshot = TestData.Good(id, TestStore.Start);

        await store.Snapshots.WriteAsync(snapshot, None);

        var row = Assert.Single(await store.ActiveInstancesAsync()).State;
        Assert.Equal("16.0.4135.4", row.ProductVersion);
        Assert.Equal("CU15", row.ProductUpdateLevel);
        Assert.Equal(TestData.EngineAccount, row.EngineServiceAccount);
        Assert.Equal(IfiState.Enabled, row.IfiState);
        Assert.Null(row.IfiUnknownReason);
        Assert.Equal(OutcomeClass.Ok, row.LastOutcome);
        Assert.Equal(snapshot.FinishedAt, row.LastPollAt);
        Assert.Equal(snapshot.FinishedAt, row.LastGoodPollAt);
    }

    [Theory, StoreProviders]
    public async Task Unreachable_poll_after_a_good_one_keeps_identity_and_account_but_ifi_becomes_unknown(StoreProvider provider)
    {
        var (store, id) = await StoreWithInstanceAsync(provider);
        await using var _ = store;
        var good = TestData.Good(id, TestStore.Start);
        var unreachable = TestData.Unreachable(id, TestStore.Start.AddMinutes(5));

        await store.Snapshots.WriteAsync(good, None);
        await store.Snapshots.WriteAsync(unreachable, None);

        var row = Assert.Single(await store.ActiveInstancesAsync()).State;
        Assert.Equal("16.0.4135.4", row.ProductVersion);
        Assert.Equal("Enterprise Edition (64-bit)", row.Edition);
        Assert.Equal(TestData.EngineAccount, row.EngineServiceAccount);
        Assert.Equal(IfiState.Unknown, row.IfiState);
        Assert.Equal("unreachable", row.IfiUnknownReason);
        Assert.Equal(OutcomeClass.Unreachable, row.LastOutcome);
        Assert.Equal("No route to host", row.LastMessage);
        Assert.Equal(unreachable.FinishedAt, row.LastPollAt);
        Assert.Equal(good.FinishedAt, row.LastGoodPollAt);
    }

    [Theory, StoreProviders]
    public async Task Ifi_switched_off_records_one_timeline_change(StoreProvider provider)
    {
        var (store, id) = await StoreWithInstanceAsync(provider);
        await using var _ = store;

        await store.Snapshots.WriteAsync(TestData.Good(id, TestStore.Start, ifi: "Y"), None);
        await store.Snapshots.WriteAsync(TestData.Unreachable(id, TestStore.Start.AddMinutes(5)), None);
        await store.Snapshots.WriteAsync(TestData.Good(id, TestStore.Start.AddMinutes(10), ifi: "N"), None);

        await using var connection = await store.OpenAsync();
        var change = Assert.Single(await connection.QueryAsync<(string Field, string Old, string New)>(
            "SELECT field, old_value, new_value FROM ifi_changes;"));
        Assert.Equal(("ifi_enabled", "Y", "N"), change);
    }

    [Theory, StoreProviders]
    public async Task Restart_under_another_account_records_account_and_start_time_changes(StoreProvider provider)
    {
        var (store, id) = await StoreWithInstanceAsync(provider);
        await using var _ = store;

        await store.Snapshots.WriteAsync(TestData.Good(id, TestStore.Start), None);
        await store.Snapshots.WriteAsync(TestData.Good(id, TestStore.Start.AddMinutes(5),
            account: @"CORP\svc-sql$", engineStarted: TestStore.Start.AddMinutes(3)), None);

        await using var connection = await store.OpenAsync();
        var fields = await connection.QueryAsync<string>("SELECT field FROM ifi_changes ORDER BY field;");
        Assert.Equal(["last_startup_time", "service_account"], fields);
    }

    [Theory, StoreProviders]
    public async Task First_observation_records_no_change(StoreProvider provider)
    {
        var (store, id) = await StoreWithInstanceAsync(provider);
        await using var _ = store;

        await store.Snapshots.WriteAsync(TestData.Unreachable(id, TestStore.Start), None);
        await store.Snapshots.WriteAsync(TestData.Good(id, TestStore.Start.AddMinutes(5), ifi: "N"), None);

        Assert.Equal(0, await CountAsync(store, "SELECT COUNT(*) FROM ifi_changes;"));
    }

    [Theory, StoreProviders]
    public async Task Late_replay_of_an_older_snapshot_is_history_only(StoreProvider provider)
    {
        var (store, id) = await StoreWithInstanceAsync(provider);
        await using var _ = store;
        var older = TestData.Good(id, TestStore.Start, ifi: "N");
        await store.Snapshots.WriteAsync(TestData.Good(id, TestStore.Start.AddMinutes(10), ifi: "Y"), None);

        await store.Snapshots.WriteAsync(older, None);

        var row = Assert.Single(await store.ActiveInstancesAsync()).State;
        Assert.Equal(IfiState.Enabled, row.IfiState);
        Assert.Equal(2, await CountAsync(store, "SELECT COUNT(*) FROM polls;"));
        Assert.Equal(0, await CountAsync(store, "SELECT COUNT(*) FROM ifi_changes;"));
    }
}
