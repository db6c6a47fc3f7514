using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Shared.Snapshots;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests;

public class ZeroingPropertyTests
{
    static readonly DateTimeOffset From = Now.AddDays(-7);

    sealed record Case(IReadOnlyList<InstanceFactSet> Fleet)
    {
        public override string ToString() => string.Join("; ", Fleet.Select(s =>
            $"#{s.Instance.InstanceId} {s.Instance.Ifi.State} v{s.Instance.MajorVersion} ed{s.Instance.EngineEdition} " +
            $"tde[{string.Join(",", s.Encryption.Select(e => $"{e.DatabaseId}:{e.EncryptionState}"))}] " +
            $"polls[{string.Join(",", s.History.Select(p => $"{p.PolledAt:MM-dd HH}:{p.Ifi}"))}] " +
            $"events[{string.Join(",", s.GrowthEvents.Select(e => $"{e.EventClass}/{e.DatabaseId}/{e.GrowthPages}p/{e.DurationMicroseconds}us"))}]"));
    }

    static InstanceFactSet GenerateInstance(Random random, long id)
    {
        var instance = Instance(random.Pick(IfiState.Enabled, IfiState.Disabled, IfiState.Unknown),
            major: random.Pick(0, 11, 12, 13, 14, 15, 16, 17), id: id, name: $"SQL{id:00}",
            engineEdition: random.Pick(2, 3, 3, 3, 4, 5, 8));
        var databases = Enumerable.Range(5, random.Next(1, 4)).ToList();
        var files = databases.SelectMany(db => new[]
        {
            DataFile(db, $"db{db}", $"db{db}", path: random.Pick(@"D:\Data\", @"E:\Data\", "/var/opt/mssql/data/") + $"db{db}.mdf"),
            LogFile(db, $"db{db}", $"db{db}_log"),
        }).ToList();
        var encryption = databases.Where(_ => random.Next(3) == 0)
            .Select(db => new DatabaseEncryptionFacts(db, random.Next(0, 7))).ToList();
        var history = Enumerable.Range(0, random.Next(0, 6))
            .Select(_ => Poll(From.AddHours(random.Next(-48, 200)),
                random.Pick(IfiState.Enabled, IfiState.Disabled, IfiState.Unknown),
                random.Next(4) == 0 ? null : From.AddHours(random.Next(-400, 150))))
            .ToList();
        var events = Enumerable.Range(0, random.Next(0, 12)).Select(_ =>
        {
            var db = random.Pick(databases.ToArray());
            var eventClass = random.Pick(92, 92, 93, 94);
            return DataGrowth(From.AddMinutes(random.Next(-2_000, 12_000)), random.NextLong(0, 2_000_000),
                random.NextLong(-10, 120_000_000), db, $"db{db}", eventClass == 92 ? $"db{db}" : $"db{db}_log")
                with { EventClass = eventClass };
        }).ToList();
        return Set(instance, files, events, encryption, history);
    }

    static Case Generate(Random random) =>
        new(Enumerable.Range(1, random.Next(1, 4)).Select(id => GenerateInstance(random, id)).ToList());

    static ZeroingReport Report(Case c) => ZeroingReportBuilder.Build(c.Fleet, From, Now);

    static IEnumerable<ZeroingTotals> AllTotals(ZeroingReport report) =>
        new[] { report.Fleet }
            .Concat(report.Instances.Select(i => i.Totals))
            .Concat(report.Instances.SelectMany(i => i.Databases).Select(d => d.Totals));

    [Fact]
    public void Time_lost_never_exceeds_total_growth_time() =>
        Property.ForAll(Generate, c =>
        {
            foreach (var totals in AllTotals(Report(c)))
            {
                Assert.InRange(totals.TimeLostMicroseconds, 0, totals.GrowthMicroseconds);
                Assert.InRange(totals.TimeLostMicroseconds + totals.TdeZeroingMicroseconds + totals.LogZeroingMicroseconds
                               + totals.IfiUnknownMicroseconds, 0, totals.GrowthMicroseconds);
                Assert.InRange(totals.TimeLostAssumedMicroseconds, 0, totals.TimeLostMicroseconds);
            }
        });

    [Fact]
    public void Fleet_time_lost_is_the_sum_of_its_instances_and_each_instance_the_sum_of_its_databases() =>
        Property.ForAll(Generate, c =>
        {
            var report = Report(c);
            Assert.Equal(report.Fleet.TimeLostMicroseconds, report.Instances.Sum(i => i.Totals.TimeLostMicroseconds));
            foreach (var instance in report.Instances)
                Assert.Equal(instance.Totals.TimeLostMicroseconds, instance.Databases.Sum(d => d.Totals.TimeLostMicroseconds));
        });

    [Fact]
    public void With_IFI_on_throughout_no_time_is_lost() =>
        Property.ForAll(Generate, c =>
        {
            var alwaysOn = new Case(c.Fleet.Select(s => s with
            {
                Instance = s.Instance with { Ifi = new IfiObservation(IfiState.Enabled, null) },
                History = s.History.Select(p => p with { Ifi = IfiState.Enabled }).ToList(),
            }).ToList());

            Assert.Equal(0, Report(alwaysOn).Fleet.TimeLostMicroseconds);
        });

    [Fact]
    public void Median_rate_lies_between_the_slowest_and_fastest_sample() =>
        Property.ForAll(Generate, c =>
        {
            foreach (var set in c.Fleet)
            {
                var samples = GrowthEventAssessor.AssessAll(set)
                    .Where(a => a.IsDataZeroingSample && a.Event.DurationMicroseconds > 0
                        && a.Event.GrowthBytes >= ZeroingRateOptions.MinimumSampleBytes)
                    .Select(a => ZeroingRateEstimator.BytesPerSecond(a.Event))
                    .ToList();
                var rate = ZeroingRateEstimator.Estimate(set, new ZeroingRateOptions()).Instance;

                Assert.Equal(samples.Count, rate.SampleCount);
                if (samples.Count == 0)
                    Assert.True(rate.IsAssumed);
                else
                    Assert.InRange(rate.BytesPerSecond, samples.Min(), samples.Max());
            }
        });

    [Fact]
    public void Weighted_median_of_any_list_lies_between_its_min_and_max() =>
        Property.ForAll(random => Enumerable.Range(0, random.Next(1, 30))
                .Select(_ => (Value: random.NextDouble() * 4e9, Weight: (double)random.Next(1, 100_000))).ToArray(),
            samples => Assert.InRange(Median.Weighted(samples)!.Value, samples.Min(s => s.Value), samples.Max(s => s.Value)));

    [Fact]
    public void Median_of_any_list_lies_between_its_min_and_max() =>
        Property.ForAll(random => Enumerable.Range(0, random.Next(1, 30)).Select(_ => random.NextDouble() * 4e9).ToArray(),
            values => Assert.InRange(Median.Of(values)!.Value, values.Min(), values.Max()));
}
