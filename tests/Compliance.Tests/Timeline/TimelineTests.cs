using IfiDashboard.Compliance.Timeline;
using IfiDashboard.Shared.Snapshots;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests;

public class TimelineTests
{
    static readonly DateTimeOffset April = new(2025, 4, 1, 6, 0, 0, TimeSpan.Zero);
    static readonly DateTimeOffset ThirdOfMay = new(2025, 5, 3, 2, 14, 0, TimeSpan.Zero);

    [Fact]
    public void IFI_lost_after_the_restart_on_3_May_is_derivable()
    {
        var sawIt = Poll(ThirdOfMay.AddMinutes(5), IfiState.Disabled, ThirdOfMay);
        var polls = new[]
        {
            Poll(ThirdOfMay.AddHours(-1), IfiState.Enabled, April),
            sawIt,
            Poll(ThirdOfMay.AddHours(1), IfiState.Disabled, ThirdOfMay),
        };

        var changes = TimelineBuilder.Build(1, polls);

        Assert.Equal([TimelineChangeKind.ServiceStart, TimelineChangeKind.IfiFlag], changes.Select(c => c.Kind));
        var lost = changes.Single(c => c.Kind == TimelineChangeKind.IfiFlag);
        Assert.Equal(("Y", "N"), (lost.Before, lost.After));
        Assert.Equal(sawIt.SnapshotId, lost.SeenBySnapshotId);
        Assert.Equal(sawIt.PolledAt, lost.SeenAt);
        Assert.True(lost.CoincidesWithRestart);
        Assert.Equal("IFI lost after the restart on 3 May 2025", TimelineText.Describe(lost));
    }

    [Fact]
    public void IFI_is_off_since_the_restart_that_lost_it_or_since_the_engine_start_when_it_never_changed()
    {
        var lostAtRestart = new[]
        {
            Poll(ThirdOfMay.AddHours(-1), IfiState.Enabled, April),
            Poll(ThirdOfMay.AddMinutes(5), IfiState.Disabled, ThirdOfMay),
            Poll(ThirdOfMay.AddHours(1), IfiState.Unknown, null, account: null),
        };
        var gainedBetweenPolls = new[] { Poll(Now.AddHours(-2), IfiState.Disabled, April), Poll(Now.AddHours(-1), IfiState.Enabled, April) };
        var neverChanged = new[] { Poll(Now.AddHours(-1), IfiState.Enabled, April), Poll(Now.AddHours(-5), IfiState.Enabled, April) };
        var neverChangedNoStartTime = new[] { Poll(Now.AddHours(-1), IfiState.Disabled, null), Poll(Now.AddHours(-5), IfiState.Disabled, null) };
        var neverRead = new[] { Poll(Now, IfiState.Unknown, null, account: null) };

        Assert.Equal(ThirdOfMay, TimelineBuilder.IfiSince(1, lostAtRestart));
        Assert.Equal(Now.AddHours(-1), TimelineBuilder.IfiSince(1, gainedBetweenPolls));
        // The engine reads the privilege when it starts: a state the first poll already saw held since that start
        // (issue 29: "IFI since" said the first poll, 2026-11-27, for an engine off since 2026-10-19).
        Assert.Equal(April, TimelineBuilder.IfiSince(1, neverChanged));
        Assert.Equal(Now.AddHours(-5), TimelineBuilder.IfiSince(1, neverChangedNoStartTime));
        Assert.Null(TimelineBuilder.IfiSince(1, neverRead));
    }

    [Fact]
    public void Failed_polls_in_between_do_not_create_changes()
    {
        var polls = new[]
        {
            Poll(Now.AddHours(-3), IfiState.Enabled, April),
            Poll(Now.AddHours(-2), IfiState.Unknown, null, account: null),
            Poll(Now.AddHours(-1), IfiState.Enabled, April),
        };

        Assert.Empty(TimelineBuilder.Build(1, polls));
    }

    [Fact]
    public void Polls_are_put_in_time_order_first()
    {
        var polls = new[]
        {
            Poll(Now, IfiState.Enabled, April),
            Poll(Now.AddHours(-1), IfiState.Disabled, April),
        };

        var change = TimelineBuilder.Build(1, polls).Single();

        Assert.Equal(("N", "Y"), (change.Before, change.After));
        Assert.False(change.CoincidesWithRestart);
        Assert.StartsWith("IFI gained between polls", TimelineText.Describe(change));
    }

    [Fact]
    public void Service_account_change_is_kept_with_its_restart()
    {
        var polls = new[]
        {
            Poll(ThirdOfMay.AddHours(-1), IfiState.Enabled, April, @"NT Service\MSSQLSERVER"),
            Poll(ThirdOfMay.AddHours(1), IfiState.Enabled, ThirdOfMay, @"CORP\svc-sql"),
            Poll(ThirdOfMay.AddHours(2), IfiState.Enabled, ThirdOfMay, @"corp\SVC-SQL"),
        };

        var changes = TimelineBuilder.Build(1, polls);

        var account = changes.Single(c => c.Kind == TimelineChangeKind.ServiceAccount);
        Assert.Equal((@"NT Service\MSSQLSERVER", @"CORP\svc-sql"), (account.Before, account.After));
        Assert.Equal(ThirdOfMay, account.AfterRestartAt);
        Assert.Single(changes, c => c.Kind == TimelineChangeKind.ServiceStart);
    }

    [Fact]
    public void Restart_without_other_change_is_recorded_alone()
    {
        var polls = new[] { Poll(Now.AddHours(-2), IfiState.Enabled, April), Poll(Now, IfiState.Enabled, ThirdOfMay) };

        var change = TimelineBuilder.Build(1, polls).Single();

        Assert.Equal(TimelineChangeKind.ServiceStart, change.Kind);
        Assert.Equal("2025-05-03 02:14 +00:00", change.After);
    }
}
