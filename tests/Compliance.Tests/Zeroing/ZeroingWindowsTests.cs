using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Shared.Snapshots;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests;

/// <summary>
/// The one-pass build of several windows must give, window by window, what filtering the events to the window and
/// judging them there gives: checked against a plain restatement of that definition.
/// </summary>
public class ZeroingWindowsTests
{
    sealed record Case(InstanceFactSet Set, IReadOnlyList<ZeroingWindow> Windows)
    {
        public override string ToString() =>
            $"#{Set.Instance.InstanceId} {Set.Instance.Ifi.State} v{Set.Instance.MajorVersion} " +
            $"windows[{string.Join(",", Windows.Select(w => $"{w.From:MM-dd HH:mm}..{w.To:MM-dd HH:mm}"))}] " +
            $"events[{string.Join(",", Set.GrowthEvents.Select(e => $"{e.EventClass}/{e.DatabaseId}:{e.DatabaseName}/{e.StartTime:MM-dd HH:mm}/{e.DurationMicroseconds}us"))}]";
    }

    static Case Generate(Random random)
    {
        var instance = Instance(random.Pick(IfiState.Enabled, IfiState.Disabled, IfiState.Unknown),
            major: random.Pick(0, 12, 15, 16, 17), engineEdition: random.Pick(3, 3, 5, 8));
        var encryption = Enumerable.Range(5, 3).Where(_ => random.Next(3) == 0)
            .Select(db => new DatabaseEncryptionFacts(db, random.Next(0, 7))).ToList();
        var history = Enumerable.Range(0, random.Next(0, 5))
            .Select(_ => Poll(Now.AddDays(-random.Next(0, 100)), random.Pick(IfiState.Enabled, IfiState.Disabled, IfiState.Unknown),
                random.Next(3) == 0 ? null : Now.AddDays(-random.Next(0, 120))))
            .ToList();
        // Few distinct moments and names, so that equal start times, renames and names equal but for case all occur.
        var events = Enumerable.Range(0, random.Next(0, 40)).Select(_ =>
        {
            var db = random.Next(5, 9);
            return DataGrowth(Now.AddDays(-random.Next(-2, 100)).AddHours(random.Pick(0, 0, 6)), random.NextLong(0, 20_000),
                    random.NextLong(-10, 50_000_000), db, random.Pick($"db{db}", $"DB{db}", "renamed", "Shared"), $"f{db}")
                with { EventClass = random.Pick(92, 92, 93, 94, 95) };
        }).ToList();
        var windows = new List<ZeroingWindow>
        {
            new(Now.AddDays(-7), Now), new(Now.AddDays(-30), Now), new(Now.AddDays(-90), Now),
            new(Now.AddDays(-random.Next(0, 100)), Now.AddDays(-random.Next(-5, 50))),
        };
        return new Case(Set(instance, growths: events, encryption: encryption, history: history), windows);
    }

    /// <summary>The definition: the window's events, judged, grouped by database in order of first appearance.</summary>
    static InstanceZeroing Expected(InstanceFactSet set, ZeroingWindow window)
    {
        var judged = GrowthEventAssessor.AssessAll(set with
        {
            GrowthEvents = set.GrowthEvents.Where(e => window.From <= e.StartTime && e.StartTime < window.To).ToList(),
        });
        var databases = judged
            .GroupBy(a => a.Event.DatabaseId)
            .Select(g => new DatabaseZeroing(g.Key, g.MaxBy(a => a.Event.StartTime)!.Event.DatabaseName, Sum(g.ToList())))
            .OrderByDescending(d => d.Totals.TimeLostMicroseconds)
            .ThenBy(d => d.DatabaseName, StringComparer.OrdinalIgnoreCase)
            .ToList();
        return new InstanceZeroing(set.Instance.InstanceId, set.Instance.Name, Sum(judged), databases);
    }

    static ZeroingTotals Sum(IReadOnlyList<GrowthEventAssessment> judged)
    {
        long Of(GrowthZeroing kind) => judged.Where(a => a.Zeroing == kind).Sum(a => a.Event.SafeDurationMicroseconds);
        var lost = judged.Where(a => a.Zeroing == GrowthZeroing.DataZeroedWithoutIfi).ToList();
        return new ZeroingTotals
        {
            GrowthEvents = judged.Count,
            GrowthMicroseconds = judged.Sum(a => a.Event.SafeDurationMicroseconds),
            TimeLostEvents = lost.Count,
            TimeLostMicroseconds = lost.Sum(a => a.Event.SafeDurationMicroseconds),
            TimeLostAssumedMicroseconds = lost.Where(a => a.InstanceIfi.IsAssumed).Sum(a => a.Event.SafeDurationMicroseconds),
            BytesZeroedWithoutIfi = lost.Sum(a => a.Event.GrowthBytes),
            TdeZeroingMicroseconds = Of(GrowthZeroing.DataZeroedByTde),
            LogZeroingMicroseconds = Of(GrowthZeroing.LogZeroed),
            LogGrowthsNotZeroed = judged.Count(a => a.Zeroing == GrowthZeroing.LogNotZeroed),
            IfiUnknownMicroseconds = Of(GrowthZeroing.IfiUnknown),
        };
    }

    static void AssertSame(InstanceZeroing expected, InstanceZeroing actual)
    {
        Assert.Equal(expected.InstanceId, actual.InstanceId);
        Assert.Equal(expected.InstanceName, actual.InstanceName);
        Assert.Equal(expected.Totals, actual.Totals);
        Assert.Equal(expected.Databases, actual.Databases);
    }

    [Fact]
    public void Each_window_of_a_one_pass_build_equals_the_window_built_from_its_own_events() =>
        Property.ForAll(Generate, c =>
        {
            var built = InstanceZeroingWindows.Build(c.Set.Instance, GrowthEventAssessor.AssessAll(c.Set), c.Windows);

            Assert.Equal(c.Windows.Count, built.Count);
            for (var w = 0; w < c.Windows.Count; w++)
                AssertSame(Expected(c.Set, c.Windows[w]), built[w]);
        });

    [Fact]
    public void A_single_window_report_equals_the_definition() =>
        Property.ForAll(Generate, c =>
        {
            var window = c.Windows[^1];
            AssertSame(Expected(c.Set, window), ZeroingReportBuilder.BuildInstance(c.Set, window.From, window.To));
        });

    [Fact]
    public void Estimating_rates_from_the_judged_events_equals_estimating_from_the_facts() =>
        Property.ForAll(Generate, c =>
        {
            var options = new ZeroingRateOptions();
            var fromFacts = ZeroingRateEstimator.Estimate(c.Set, options);
            var fromJudged = ZeroingRateEstimator.Estimate(c.Set, GrowthEventAssessor.AssessAll(c.Set), options);

            Assert.Equal(fromFacts.Instance, fromJudged.Instance);
            Assert.Equal(fromFacts.Volumes, fromJudged.Volumes);
        });

    [Fact]
    public void Events_on_a_window_edge_count_from_the_start_and_not_at_the_end()
    {
        var set = Set(Instance(IfiState.Disabled), growths:
        [
            DataGrowth(Now.AddDays(-7), 128, 1_000), DataGrowth(Now, 128, 20_000), DataGrowth(Now.AddDays(-7).AddTicks(-1), 128, 300_000),
        ]);

        var built = InstanceZeroingWindows.Build(set.Instance, GrowthEventAssessor.AssessAll(set),
            [new ZeroingWindow(Now.AddDays(-7), Now), new ZeroingWindow(Now.AddDays(-30), Now)]);

        Assert.Equal(1_000, built[0].Totals.TimeLostMicroseconds);
        Assert.Equal(301_000, built[1].Totals.TimeLostMicroseconds);
    }
}
