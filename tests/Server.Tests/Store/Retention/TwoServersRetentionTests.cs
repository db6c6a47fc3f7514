using IfiDashboard.Store.Alerts;
using IfiDashboard.Store.Retention;
using IfiDashboard.Server.Tests.Alerts;
using static IfiDashboard.Server.Tests.Store.Retention.HistorySnapshots;

namespace IfiDashboard.Server.Tests.Store.Retention;

/// <summary>
/// Two servers on one store: the retention lease lets one pass run at a time, the other server skips its pass while
/// the first holds it, and a lease left behind by a server that died runs out.
/// </summary>
public sealed class TwoServersRetentionTests
{
    const int OldMails = 7;
    static readonly CancellationToken None = CancellationToken.None;

    static async Task WriteOldMailAsync(RetentionBed bed)
    {
        var outbox = new OutboxStore(bed.Store.Connections, bed.Clock);
        for (var i = 0; i < OldMails; i++)
            await outbox.RecordAsync(AlertOutboxRetentionTests.Mail($"sent-{i}"), sent: true, error: null, None);
        bed.Clock.SetUtcNow(Day(200));
    }

    Task<long> MailLeftAsync(RetentionBed bed) => bed.CountAsync("SELECT COUNT(*) FROM alert_outbox;");

    [Theory, StoreProviders]
    public async Task A_second_server_skips_its_pass_while_the_first_is_pruning_and_nothing_is_deleted_twice(StoreProvider provider)
    {
        // Three rows a batch and a pause on the fake clock after each: the first pass stops after its first batch
        // until the test moves the clock.
        await using var bed = await RetentionBed.CreateAsync(provider, o => { o.BatchSize = 3; o.BatchPauseMilliseconds = 1000; });
        await WriteOldMailAsync(bed);
        var second = bed.SecondServerPruner();

        var firstPass = bed.PruneAsync();
        var leftAfterFirstBatch = await Eventually.WaitAsync(() => MailLeftAsync(bed), left => left == OldMails - 3);
        var skipped = await second.PruneOnceAsync(None);
        var leftAfterSkip = await MailLeftAsync(bed);
        var first = await Eventually.WaitAsync(() =>
        {
            bed.Clock.Advance(TimeSpan.FromSeconds(1)); // wakes the first pass's pause, once its timer is set
            return firstPass;
        }, pass => pass.IsCompleted);
        var afterwards = await second.PruneOnceAsync(None);

        Assert.Equal(OldMails - 3, leftAfterFirstBatch);
        Assert.True(skipped.Skipped);
        Assert.Equal(0, skipped.AlertMails);
        Assert.Equal(OldMails - 3, leftAfterSkip);
        Assert.True(first.IsCompletedSuccessfully, "the first pass did not finish");
        Assert.Equal((false, OldMails), ((await first).Skipped, (await first).AlertMails));
        // The first pass let the lease go: the second server's next pass runs, and finds nothing left.
        Assert.Equal((false, 0L), (afterwards.Skipped, afterwards.AlertMails));
        Assert.Equal(0, await MailLeftAsync(bed));
    }

    [Theory, StoreProviders]
    public async Task A_lease_left_by_a_server_that_died_mid_pass_runs_out(StoreProvider provider)
    {
        await using var bed = await RetentionBed.CreateAsync(provider);
        await WriteOldMailAsync(bed);
        var dead = new RetentionLease(bed.Store.Connections, bed.Clock);
        Assert.True(await dead.TryTakeAsync(None));

        var whileHeld = await bed.PruneAsync();
        bed.Clock.Advance(RetentionLease.Duration);
        var afterExpiry = await bed.PruneAsync();

        Assert.True(whileHeld.Skipped);
        Assert.Equal((false, OldMails), (afterExpiry.Skipped, afterExpiry.AlertMails));
        Assert.False(await dead.RenewAsync(None));
    }
}
