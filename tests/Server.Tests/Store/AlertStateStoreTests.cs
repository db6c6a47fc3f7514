using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Shared.Alerts;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Store.Alerts.Mail;

namespace IfiDashboard.Server.Tests.Store;

/// <summary>
/// An alert evaluation decides (rules and composed mails) without holding the store's writer lock, so a snapshot or a
/// lease is not kept waiting while it does; a second evaluation that wrote meanwhile is still not decided over.
/// </summary>
public sealed class AlertStateStoreTests
{
    static readonly CancellationToken None = CancellationToken.None;

    static readonly AlertPlan Nothing = new([], [], [], [], []);

    // Opens a NonCompliant episode for the instance unless one is stored, with its one mail.
    static (AlertPlan, IReadOnlyList<OutboxMessage>) OpenUnlessStored(long instanceId, IReadOnlyList<AlertState> stored, DateTimeOffset now)
    {
        if (stored.Any(s => s.InstanceId == instanceId)) return (Nothing, []);
        var episode = new AlertState(instanceId, AlertRule.NonCompliant, "IFI off", now, now, 1);
        var mail = new OutboxMessage($"opened:{instanceId}:{now:O}", AlertNoticeKind.Opened, instanceId, "SQL01", AlertRule.NonCompliant,
            ["prod-dba@example.test"], new AlertMailContent("[IFI] SQL01 non-compliant", "IFI off", "<p>IFI off</p>"));
        return (new AlertPlan([episode], [], [], [], []), [mail]);
    }

    static async Task<(long InstanceId, AlertStateStore States, DateTimeOffset Now)> OneInstanceAsync(TestStore store) =>
        (await store.Instances.AddAsync(TestData.Registration("SQL01"), None),
            new AlertStateStore(store.Connections, store.Clock, new AlertSilenceStore(store.Connections, store.Clock, store.Audit)),
            store.Clock.GetUtcNow());

    [Theory, StoreProviders]
    public async Task A_writer_goes_on_while_an_evaluation_decides_and_the_evaluation_then_decides_again_on_what_it_wrote(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var (instanceId, states, now) = await OneInstanceAsync(store);
        var deciding = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var slowDecisions = 0;

        var slow = Task.Run(() => states.EvaluateAsync((stored, _, _) =>
        {
            // The first decision stands for one that takes long (composing mails on a busy machine).
            if (Interlocked.Increment(ref slowDecisions) == 1)
            {
                deciding.SetResult();
                release.Task.Wait();
            }
            return OpenUnlessStored(instanceId, stored, now);
        }, None));
        await deciding.Task;
        int quick;
        try
        {
            // An evaluation holding the writer lock while it decides makes this one fail on the store's lock wait.
            quick = await states.EvaluateAsync((stored, _, _) => OpenUnlessStored(instanceId, stored, now), None);
        }
        finally
        {
            release.SetResult();
        }
        var late = await slow;

        Assert.Equal((1, 0), (quick, late));
        Assert.Equal(2, slowDecisions);
        var episode = Assert.Single(await states.ListAsync(None));
        Assert.Equal((instanceId, AlertRule.NonCompliant), (episode.InstanceId, episode.Rule));
        Assert.Single(await new OutboxStore(store.Connections, store.Clock).RecentAsync(10, None));
    }

    [Theory, StoreProviders]
    public async Task An_evaluation_that_changes_nothing_writes_nothing(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var (instanceId, states, now) = await OneInstanceAsync(store);

        var first = await states.EvaluateAsync((stored, _, _) => OpenUnlessStored(instanceId, stored, now), None);
        var second = await states.EvaluateAsync((stored, _, _) => OpenUnlessStored(instanceId, stored, now), None);

        Assert.Equal((1, 0), (first, second));
        Assert.Single(await states.ListAsync(None));
        Assert.Single(await new OutboxStore(store.Connections, store.Clock).RecentAsync(10, None));
    }
}
