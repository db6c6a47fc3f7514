using Dapper;
using IfiDashboard.Store;
using static IfiDashboard.Server.Tests.Store.Retention.HistorySnapshots;

namespace IfiDashboard.Server.Tests.Store.Retention;

/// <summary>Growth events are pruned by start time, and ingestion does not store them again afterwards.</summary>
public sealed class GrowthEventRetentionTests
{
    [Theory, StoreProviders]
    public async Task Old_events_go_and_then_the_poll_that_first_saw_them(StoreProvider provider)
    {
        await using var bed = await RetentionBed.CreateAsync(provider, o => (o.PollDays, o.GrowthEventDays) = (90, 400));
        var id = await bed.AddInstanceAsync("SQL01");
        await bed.WriteAsync(TestData.Good(id, Day(0)));
        await bed.WriteAsync(TestData.Good(id, Day(1)).WithGrowth(Growth(Day(1).AddHours(-2)), Growth(Day(1).AddHours(-1))));
        await bed.WriteAsync(TestData.Good(id, Day(2)));
        await bed.WriteAsync(TestData.Good(id, Day(3)));

        bed.Clock.SetUtcNow(Day(100));
        var early = await bed.PruneAsync();
        // The events are within 400 days, so the day-1 poll they point at stays although it is past 90 days.
        Assert.Equal([0, 1, 3], await bed.PollDaysAsync(id));
        Assert.Equal((0, 1), (early.GrowthEvents, early.Polls));

        bed.Clock.SetUtcNow(Day(402));
        var late = await bed.PruneAsync();
        Assert.Equal((2, 1), (late.GrowthEvents, late.Polls));
        Assert.Equal([0, 3], await bed.PollDaysAsync(id));
        Assert.Equal(0, await bed.CountAsync("SELECT COUNT(*) FROM growth_events;"));
    }

    [Theory, StoreProviders]
    public async Task Events_are_pruned_by_start_time_at_the_cut_off(StoreProvider provider)
    {
        await using var bed = await RetentionBed.CreateAsync(provider, o => o.GrowthEventDays = 400);
        var id = await bed.AddInstanceAsync("SQL01");
        await bed.WriteAsync(TestData.Good(id, Day(10)).WithGrowth(
            Growth(Day(0)), Growth(Day(1)), Growth(Day(9))));
        bed.Clock.SetUtcNow(Day(401)); // the cut-off is day 1, to the tick

        var report = await bed.PruneAsync();

        // Only the event that started before the cut-off goes; one that started exactly at it stays.
        Assert.Equal(1, report.GrowthEvents);
        await using var connection = await bed.Store.OpenAsync();
        var starts = await connection.QueryAsync<string>("SELECT start_time FROM growth_events ORDER BY start_time;");
        Assert.Equal([StoreTime.ToText(Day(1)), StoreTime.ToText(Day(9))], starts);
    }

    [Theory, StoreProviders]
    public async Task A_reread_trace_does_not_bring_back_pruned_events(StoreProvider provider)
    {
        await using var bed = await RetentionBed.CreateAsync(provider, o => o.GrowthEventDays = 400);
        var id = await bed.AddInstanceAsync("SQL01");
        var first = Growth(Day(0).AddHours(-2));
        var second = Growth(Day(0).AddHours(-1));
        await bed.WriteAsync(TestData.Good(id, Day(0)).WithGrowth(first, second));
        bed.Clock.SetUtcNow(Day(401));
        var report = await bed.PruneAsync();
        Assert.Equal(2, report.GrowthEvents);

        // A collector restarted: its watermark is gone and it reads the whole trace again, old events included.
        var recent = Growth(Day(401).AddHours(-1));
        await bed.WriteAsync(TestData.Good(id, Day(401)).WithGrowth(first, second, recent));

        await using var connection = await bed.Store.OpenAsync();
        var starts = await connection.QueryAsync<string>("SELECT start_time FROM growth_events;");
        Assert.Equal([StoreTime.ToText(recent.StartTime)], starts);
        Assert.False((await bed.PruneAsync()).DeletedAny);
    }
}
