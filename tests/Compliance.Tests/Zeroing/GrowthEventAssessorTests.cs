using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Shared.Snapshots;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests;

public class GrowthEventAssessorTests
{
    static readonly DateTimeOffset At = Now.AddHours(-1);

    static GrowthEventAssessment AssessOne(InstanceFacts instance, GrowthEventFacts growth,
        IEnumerable<DatabaseEncryptionFacts>? encryption = null, IEnumerable<PollObservation>? history = null) =>
        GrowthEventAssessor.AssessAll(Set(instance, growths: [growth], encryption: encryption, history: history)).Single();

    [Fact]
    public void Growth_on_instance_without_IFI_counts_as_time_lost()
    {
        var a = AssessOne(Instance(IfiState.Disabled, major: 15), DataGrowth(At, PagesOfMB(512), 4_100_000));

        Assert.Equal(GrowthZeroing.DataZeroedWithoutIfi, a.Zeroing);
        Assert.Equal(4_100_000, a.TimeLostMicroseconds);
        Assert.Equal(4_100_000, a.ZeroingMicroseconds);
    }

    [Fact]
    public void Growth_on_instance_with_IFI_loses_no_time()
    {
        var a = AssessOne(Instance(IfiState.Enabled, major: 15), DataGrowth(At, PagesOfMB(512), 3_000));

        Assert.Equal(GrowthZeroing.DataNotZeroed, a.Zeroing);
        Assert.Equal(0, a.TimeLostMicroseconds);
        Assert.Equal(0, a.ZeroingMicroseconds);
    }

    [Fact]
    public void Growth_of_TDE_database_is_zeroing_that_IFI_could_not_save()
    {
        var a = AssessOne(Instance(IfiState.Enabled, major: 16), DataGrowth(At, PagesOfMB(256), 2_000_000),
            encryption: [new DatabaseEncryptionFacts(5, 3)]);

        Assert.Equal(GrowthZeroing.DataZeroedByTde, a.Zeroing);
        Assert.Equal(0, a.TimeLostMicroseconds);
        Assert.Equal(2_000_000, a.ZeroingMicroseconds);
    }

    [Theory]
    [InlineData(15, 64, GrowthZeroing.LogZeroed, 900_000)]
    [InlineData(16, 64, GrowthZeroing.LogNotZeroed, 0)]
    [InlineData(16, 65, GrowthZeroing.LogZeroed, 900_000)]
    [InlineData(17, 32, GrowthZeroing.LogNotZeroed, 0)]
    public void Log_growth_zeroing_is_shown_apart_and_never_as_time_lost(int major, long megabytes,
        GrowthZeroing expected, long zeroing)
    {
        var a = AssessOne(Instance(IfiState.Disabled, major: major), LogGrowth(At, PagesOfMB(megabytes), 900_000));

        Assert.Equal(expected, a.Zeroing);
        Assert.Equal(zeroing, a.ZeroingMicroseconds);
        Assert.Equal(0, a.TimeLostMicroseconds);
    }

    [Fact]
    public void Growth_before_IFI_was_lost_is_judged_by_the_state_at_that_time()
    {
        var restart = Now.AddDays(-1);
        var history = new[]
        {
            Poll(Now.AddDays(-2), IfiState.Enabled, Now.AddDays(-30)),
            Poll(Now.AddHours(-1), IfiState.Disabled, restart),
        };
        var instance = Instance(IfiState.Disabled);

        var before = AssessOne(instance, DataGrowth(Now.AddDays(-3), PagesOfMB(1024), 5_000), history: history);
        var after = AssessOne(instance, DataGrowth(Now.AddHours(-2), PagesOfMB(1024), 8_000_000), history: history);

        Assert.Equal(GrowthZeroing.DataNotZeroed, before.Zeroing);
        Assert.Equal(GrowthZeroing.DataZeroedWithoutIfi, after.Zeroing);
        Assert.False(after.InstanceIfi.IsAssumed);
    }

    [Fact]
    public void Growth_outside_known_history_uses_current_state_marked_assumed()
    {
        var a = AssessOne(Instance(IfiState.Disabled), DataGrowth(At, PagesOfMB(64), 700_000));

        Assert.Equal(GrowthZeroing.DataZeroedWithoutIfi, a.Zeroing);
        Assert.True(a.InstanceIfi.IsAssumed);
    }

    [Fact]
    public void Growth_while_IFI_state_is_unknown_is_not_counted_as_time_lost()
    {
        var a = AssessOne(Instance(IfiState.Unknown), DataGrowth(At, PagesOfMB(64), 700_000));

        Assert.Equal(GrowthZeroing.IfiUnknown, a.Zeroing);
        Assert.Equal(0, a.TimeLostMicroseconds);
    }

    [Fact]
    public void Growth_on_Azure_is_not_applicable()
    {
        var a = AssessOne(Instance(IfiState.Disabled, engineEdition: 8), DataGrowth(At, PagesOfMB(64), 700_000));

        Assert.Equal(GrowthZeroing.NotApplicable, a.Zeroing);
        Assert.Equal(0, a.TimeLostMicroseconds);
    }

    [Fact]
    public void Shrink_events_are_skipped()
    {
        var shrink = DataGrowth(At, PagesOfMB(64), 700_000) with { EventClass = 94 };

        Assert.Empty(GrowthEventAssessor.AssessAll(Set(Instance(IfiState.Disabled), growths: [shrink])));
        Assert.Throws<ArgumentException>(() => new GrowthEventAssessor(Set(Instance())).Assess(shrink));
    }
}
