using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Shared.Snapshots;
using static IfiDashboard.Server.Tests.Store.Retention.HistorySnapshots;

namespace IfiDashboard.Server.Tests.Store.Retention;

/// <summary>Which polls a pruning pass deletes, and which it must keep however old they are.</summary>
public sealed class PollRetentionTests
{
    static readonly CancellationToken None = CancellationToken.None;

    [Theory, StoreProviders]
    public async Task Polls_older_than_PollDays_go_with_their_probe_outcomes_and_services(StoreProvider provider)
    {
        await using var bed = await RetentionBed.CreateAsync(provider, o => o.PollDays = 90);
        var id = await bed.AddInstanceAsync("SQL01");
        for (var day = 0; day < 200; day++)
            await bed.WriteAsync(day % 2 == 0 ? TestData.Good(id, Day(day)) : TestData.Unreachable(id, Day(day)));
        bed.Clock.SetUtcNow(Day(200));

        var report = await bed.PruneAsync();

        // The cut-off is day 110. Day 0 stays: it is the instance's first good poll, where its IFI timeline starts.
        Assert.Equal([0, .. Enumerable.Range(110, 90)], await bed.PollDaysAsync(id));
        // Days 1..109: 54 good polls (3 probes, 2 services each) and 55 unreachable ones (1 probe, no services).
        Assert.Equal(109, report.Polls);
        Assert.Equal(54 * 3 + 55, report.ProbeOutcomes);
        Assert.Equal(54 * 2, report.ServiceSnapshots);
        Assert.Equal(46 * 3 + 45, await bed.CountAsync("SELECT COUNT(*) FROM probe_outcomes;"));
        Assert.Equal(46 * 2, await bed.CountAsync("SELECT COUNT(*) FROM service_snapshots;"));
        Assert.Equal(0, await bed.OrphansAsync());
    }

    [Theory, StoreProviders]
    public async Task Instance_silent_for_months_keeps_its_latest_and_last_good_poll_and_reads_as_before(StoreProvider provider)
    {
        await using var bed = await RetentionBed.CreateAsync(provider, o => o.PollDays = 90);
        var silent = await bed.AddInstanceAsync("SQL01");
        var busy = await bed.AddInstanceAsync("SQL02");
        for (var day = 0; day < 3; day++)
            await bed.WriteAsync(TestData.Good(silent, Day(day)));
        await bed.WriteAsync(TestData.Unreachable(silent, Day(3)));
        await bed.WriteAsync(TestData.Unreachable(silent, Day(4)));
        for (var day = 0; day < 200; day += 10)
            await bed.WriteAsync(TestData.Good(busy, Day(day)));
        bed.Clock.SetUtcNow(Day(200));
        var statesBefore = (await bed.Store.ActiveInstancesAsync()).Select(a => a.State);

        await bed.PruneAsync();

        // First good (0), last good (2) and latest (4) stay; the busy instance keeps its first good poll and 90 days.
        Assert.Equal([0, 2, 4], await bed.PollDaysAsync(silent));
        Assert.Equal([0, 110, 120, 130, 140, 150, 160, 170, 180, 190], await bed.PollDaysAsync(busy));
        Assert.Equal(statesBefore, (await bed.Store.ActiveInstancesAsync()).Select(a => a.State));
        var recent = await bed.Store.Queries.RecentPollsAsync(silent, 20, None);
        Assert.Equal([Day(4), Day(2), Day(0)], recent.Select(p => p.StartedAt));
        Assert.Equal(OutcomeClass.Unreachable, recent[0].Outcome);
        Assert.Equal(0, await bed.OrphansAsync());
    }

    [Theory, StoreProviders]
    public async Task Polls_the_timeline_growth_events_or_current_files_point_at_are_kept(StoreProvider provider)
    {
        await using var bed = await RetentionBed.CreateAsync(provider, o => o.PollDays = 90);
        var id = await bed.AddInstanceAsync("SQL01");
        await bed.WriteAsync(TestData.Good(id, Day(0), ifi: "Y"));
        await bed.WriteAsync(TestData.Good(id, Day(1), ifi: "Y"));
        await bed.WriteAsync(TestData.Good(id, Day(2), ifi: "N"));                             // ifi_changes -> day 2
        await bed.WriteAsync(TestData.Good(id, Day(3), ifi: "N").WithGrowth(Growth(Day(3).AddHours(-1)))); // first_poll_id
        await bed.WriteAsync(TestData.Good(id, Day(4), ifi: "N").WithFiles());                 // seen_poll_id
        for (var day = 5; day < 200; day++)
            await bed.WriteAsync(TestData.Good(id, Day(day), ifi: "N"));
        bed.Clock.SetUtcNow(Day(200));
        var facts = new FactsReader(bed.Store.Connections);
        var observationsBefore = (await facts.ObservationsAsync([id], None))[id].ToList();

        var report = await bed.PruneAsync();

        Assert.Equal([0, 2, 3, 4, .. Enumerable.Range(110, 90)], await bed.PollDaysAsync(id));
        Assert.Equal(200 - 94, report.Polls);
        // What the compliance engine reads as the instance's IFI history is untouched.
        Assert.Equal(observationsBefore, (await facts.ObservationsAsync([id], None))[id].ToList());
        Assert.Single((await facts.FilesAsync([id], None))[id]);
        Assert.Equal(1, await bed.CountAsync("SELECT COUNT(*) FROM ifi_changes;"));
        Assert.Equal(1, await bed.CountAsync("SELECT COUNT(*) FROM growth_events;"));
    }

    [Theory, StoreProviders]
    public async Task Second_pass_deletes_nothing_more(StoreProvider provider)
    {
        await using var bed = await RetentionBed.CreateAsync(provider, o => o.PollDays = 30);
        var id = await bed.AddInstanceAsync("SQL01");
        for (var day = 0; day < 60; day++)
            await bed.WriteAsync(TestData.Good(id, Day(day)));
        bed.Clock.SetUtcNow(Day(60));

        var first = await bed.PruneAsync();
        var second = await bed.PruneAsync();

        Assert.Equal(29, first.Polls);
        Assert.False(second.DeletedAny);
        Assert.Equal([0, .. Enumerable.Range(30, 30)], await bed.PollDaysAsync(id));
    }
}
