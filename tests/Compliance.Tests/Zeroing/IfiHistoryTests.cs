using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Shared.Snapshots;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests;

public class IfiHistoryTests
{
    // IFI was on until a restart on 3 May 02:00 came back without it.
    static readonly DateTimeOffset FirstStart = new(2025, 4, 1, 6, 0, 0, TimeSpan.Zero);
    static readonly DateTimeOffset Restart = new(2025, 5, 3, 2, 0, 0, TimeSpan.Zero);

    static readonly IfiHistory History = new(
    [
        Poll(new(2025, 5, 2, 12, 0, 0, TimeSpan.Zero), IfiState.Enabled, FirstStart),
        Poll(new(2025, 5, 3, 0, 0, 0, TimeSpan.Zero), IfiState.Enabled, FirstStart),
        Poll(new(2025, 5, 3, 1, 0, 0, TimeSpan.Zero), IfiState.Unknown, null),
        Poll(new(2025, 5, 3, 6, 0, 0, TimeSpan.Zero), IfiState.Disabled, Restart),
    ], current: IfiState.Disabled);

    public static TheoryData<string, DateTimeOffset, IfiState, IfiEvidence> Moments => new()
    {
        { "before the first poll, within the first run", new(2025, 4, 20, 0, 0, 0, TimeSpan.Zero), IfiState.Enabled, IfiEvidence.SameServiceRun },
        { "between two polls of the first run", new(2025, 5, 2, 18, 0, 0, TimeSpan.Zero), IfiState.Enabled, IfiEvidence.SameServiceRun },
        { "after the restart, before the poll that saw it", new(2025, 5, 3, 3, 0, 0, TimeSpan.Zero), IfiState.Disabled, IfiEvidence.SameServiceRun },
        { "between the last poll of the old run and the restart", new(2025, 5, 3, 1, 30, 0, TimeSpan.Zero), IfiState.Disabled, IfiEvidence.AssumedCurrent },
        { "after the last poll", new(2025, 5, 4, 0, 0, 0, TimeSpan.Zero), IfiState.Disabled, IfiEvidence.AssumedCurrent },
        { "before the first observed service start: unknown, not today's state", new(2025, 3, 1, 0, 0, 0, TimeSpan.Zero), IfiState.Unknown, IfiEvidence.BeforeFirstObservedStart },
    };

    [Theory]
    [MemberData(nameof(Moments))]
    public void IFI_at_a_moment_comes_from_the_service_run_that_covered_it(string because, DateTimeOffset moment,
        IfiState state, IfiEvidence evidence)
    {
        var atTime = History.At(moment);

        Assert.True(atTime == new IfiAtTime(state, evidence), $"{because}: got {atTime}");
    }

    [Fact]
    public void Polls_without_start_time_that_agree_around_the_moment_are_used()
    {
        var history = new IfiHistory(
        [
            Poll(Now.AddHours(-2), IfiState.Disabled, null),
            Poll(Now, IfiState.Disabled, null),
        ], current: IfiState.Enabled);

        Assert.Equal(new IfiAtTime(IfiState.Disabled, IfiEvidence.BracketingPolls), history.At(Now.AddHours(-1)));
    }

    [Fact]
    public void Polls_that_disagree_around_the_moment_fall_back_to_the_current_state()
    {
        var history = new IfiHistory(
        [
            Poll(Now.AddHours(-2), IfiState.Disabled, null),
            Poll(Now, IfiState.Enabled, null),
        ], current: IfiState.Enabled);

        var atTime = history.At(Now.AddHours(-1));

        Assert.Equal(IfiEvidence.AssumedCurrent, atTime.Evidence);
        Assert.True(atTime.IsAssumed);
    }

    [Fact]
    public void No_history_falls_back_to_current_state_marked_assumed() =>
        Assert.Equal(new IfiAtTime(IfiState.Unknown, IfiEvidence.AssumedCurrent), new IfiHistory([], IfiState.Unknown).At(Now));
}
