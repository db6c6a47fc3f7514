using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Tests.Scenarios;

[Trait("Tier", "Fast")]
public sealed class ScenarioTimeShiftTests
{
    static DateTimeOffset Newest(Scenario scenario) => scenario.Instances
        .SelectMany(i => i.GrowthEvents.Select(e => e.StartTime).Concat(i.Backups.Select(b => b.Finish)).Append(i.LastStartupTime))
        .Max();

    [Fact]
    public void Demo_history_is_moved_by_whole_days_so_its_newest_moment_is_yesterday()
    {
        var scenario = DemoScenario.Load();
        var events = scenario.Instances.SelectMany(i => i.GrowthEvents).ToList();
        var newestEventBefore = events.Max(e => e.StartTime);
        var spanBefore = newestEventBefore - events.Min(e => e.StartTime);
        var now = new DateTimeOffset(2031, 3, 15, 9, 30, 0, TimeSpan.Zero);

        ScenarioTimeShift.ShiftHistoryToYesterday(scenario, now);

        Assert.Equal(new DateTime(2031, 3, 14), Newest(scenario).UtcDateTime.Date);
        var moved = events.Max(e => e.StartTime) - newestEventBefore;
        Assert.True(moved > TimeSpan.Zero);
        Assert.Equal(0, moved.Ticks % TimeSpan.TicksPerDay);
        Assert.Equal(spanBefore, events.Max(e => e.StartTime) - events.Min(e => e.StartTime));
    }
}
