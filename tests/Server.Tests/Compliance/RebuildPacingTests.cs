using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using Microsoft.Extensions.Time.Testing;

namespace IfiDashboard.Server.Tests.Compliance;

public sealed class RebuildPacingTests
{
    readonly FakeTimeProvider _time = new(new DateTimeOffset(2026, 11, 22, 6, 0, 0, TimeSpan.Zero));

    RebuildPacing AfterRebuildTaking(TimeSpan duration, int instances = 30)
    {
        var pacing = new RebuildPacing(_time);
        var started = _time.GetUtcNow();
        _time.Advance(duration);
        pacing.Built(started, instances);
        return pacing;
    }

    [Fact]
    public void Before_any_rebuild_a_change_settles_for_a_second() =>
        Assert.Equal(RebuildPacing.Settle, new RebuildPacing(_time).DelayAfterChange());

    [Fact]
    public void A_fast_rebuild_keeps_the_one_second_settle()
    {
        var pacing = AfterRebuildTaking(TimeSpan.FromMilliseconds(20));

        Assert.Equal(RebuildPacing.Settle, pacing.DelayAfterChange());
    }

    [Fact]
    public void A_change_right_after_a_slow_rebuild_waits_twice_the_rebuild()
    {
        var pacing = AfterRebuildTaking(TimeSpan.FromSeconds(4));

        Assert.Equal(TimeSpan.FromSeconds(8), pacing.DelayAfterChange());
    }

    [Fact]
    public void Time_already_passed_since_the_rebuild_counts_towards_the_pause()
    {
        var pacing = AfterRebuildTaking(TimeSpan.FromSeconds(4));
        _time.Advance(TimeSpan.FromSeconds(5));

        Assert.Equal(TimeSpan.FromSeconds(3), pacing.DelayAfterChange());
    }

    [Fact]
    public void A_change_long_after_a_slow_rebuild_only_settles()
    {
        var pacing = AfterRebuildTaking(TimeSpan.FromSeconds(4));
        _time.Advance(TimeSpan.FromSeconds(30));

        Assert.Equal(RebuildPacing.Settle, pacing.DelayAfterChange());
    }

    [Fact]
    public void A_fast_rebuild_of_a_large_fleet_waits_three_milliseconds_per_instance()
    {
        var pacing = AfterRebuildTaking(TimeSpan.FromMilliseconds(200), instances: 10_000);

        Assert.Equal(TimeSpan.FromSeconds(30), pacing.DelayAfterChange());
    }

    [Fact]
    public void The_pause_never_exceeds_a_minute()
    {
        var pacing = AfterRebuildTaking(TimeSpan.FromMinutes(3), instances: 100_000);

        Assert.Equal(RebuildPacing.MaximumPause, pacing.DelayAfterChange());
    }
}
