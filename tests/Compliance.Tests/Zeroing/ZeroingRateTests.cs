using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Shared.Snapshots;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests;

public class ZeroingRateTests
{
    static readonly ZeroingRateOptions Options = new();
    static readonly DateTimeOffset At = Now.AddDays(-1);

    [Fact]
    public void Rate_is_the_size_weighted_median_of_the_instances_own_zeroed_data_growths()
    {
        // 256 MB at 50 MB/s, 256 MB at 100 MB/s, 1 GB at 125 MB/s: by count the median would be 100 MB/s, but two
        // thirds of the bytes were zeroed at 125 MB/s.
        var facts = Set(Instance(IfiState.Disabled, major: 15), [DataFile()],
        [
            DataGrowth(At, PagesOfMB(256), 5_120_000),
            DataGrowth(At.AddHours(1), PagesOfMB(256), 2_560_000),
            DataGrowth(At.AddHours(2), PagesOfMB(1024), 8_192_000),
        ]);

        var rates = ZeroingRateEstimator.Estimate(facts, Options);

        Assert.Equal(new ZeroingRate(125.0 * MB, 3, RateMethod.MedianOfInstanceEvents), rates.Instance);
        Assert.Empty(rates.Volumes);
    }

    [Fact]
    public void Growths_smaller_than_256_MB_are_not_rate_samples()
    {
        // 64 MB growths mostly time the fixed cost of growing a file: 64 MB in 0.4 s would claim 160 MB/s.
        var facts = Set(Instance(IfiState.Disabled), [DataFile()],
        [
            DataGrowth(At, PagesOfMB(64), 400_000),
            DataGrowth(At.AddHours(1), PagesOfMB(128), 800_000),
            DataGrowth(At.AddHours(2), PagesOfMB(64), 400_000),
        ]);
        var withOneLargeGrowth = facts with
        {
            GrowthEvents = [.. facts.GrowthEvents, DataGrowth(At.AddHours(3), PagesOfMB(256), 5_120_000)], // 50 MB/s
        };

        var rate = ZeroingRateEstimator.Estimate(facts, Options).Instance;

        Assert.Equal(new ZeroingRate(100.0 * MB, 0, RateMethod.AssumedDefault), rate);
        Assert.Contains("256 MB", rate.Describe());
        Assert.Equal(new ZeroingRate(50.0 * MB, 1, RateMethod.MedianOfInstanceEvents),
            ZeroingRateEstimator.Estimate(withOneLargeGrowth, Options).Instance);
    }

    [Fact]
    public void Equal_sized_growths_take_the_mean_of_the_middle_two()
    {
        var facts = Set(Instance(IfiState.Disabled), [DataFile()],
        [
            DataGrowth(At, PagesOfMB(256), 3_200_000),               // 80 MB/s
            DataGrowth(At.AddHours(1), PagesOfMB(256), 2_560_000),   // 100 MB/s
        ]);

        Assert.Equal(90.0 * MB, ZeroingRateEstimator.Estimate(facts, Options).Instance.BytesPerSecond);
    }

    [Fact]
    public void Growths_with_IFI_zero_duration_and_log_growths_are_not_samples()
    {
        var facts = Set(Instance(IfiState.Disabled, major: 15), [DataFile(), LogFile()],
        [
            DataGrowth(At, PagesOfMB(256), 2_560_000),               // the only sample: 100 MB/s
            DataGrowth(At.AddHours(1), PagesOfMB(256), 0),           // zero duration
            LogGrowth(At.AddHours(2), PagesOfMB(512), 1_000_000),    // log: zeroed, but not a data-file sample
        ], history: [Poll(At.AddHours(4), IfiState.Disabled, At.AddDays(-1))]);
        var withIfiEarlier = facts with
        {
            GrowthEvents = [.. facts.GrowthEvents, DataGrowth(At.AddDays(-5), PagesOfMB(256), 1_000)],
            History = [.. facts.History, Poll(At.AddDays(-4), IfiState.Enabled, At.AddDays(-6))],
        };

        var rate = ZeroingRateEstimator.Estimate(withIfiEarlier, Options).Instance;

        Assert.Equal(new ZeroingRate(100.0 * MB, 1, RateMethod.MedianOfInstanceEvents), rate);
    }

    [Fact]
    public void TDE_growths_are_samples_because_they_were_zeroed()
    {
        var facts = Set(Instance(IfiState.Enabled), [DataFile()], [DataGrowth(At, PagesOfMB(256), 5_120_000)],
            encryption: [new DatabaseEncryptionFacts(5, 3)]);

        Assert.Equal(50.0 * MB, ZeroingRateEstimator.Estimate(facts, Options).Instance.BytesPerSecond);
    }

    [Fact]
    public void Instance_without_samples_gets_the_configured_default_marked_assumed()
    {
        var facts = Set(Instance(IfiState.Enabled), [DataFile()], [DataGrowth(At, PagesOfMB(256), 2_000)]);

        var rate = ZeroingRateEstimator.Estimate(facts, new ZeroingRateOptions { DefaultBytesPerSecond = 40 * MB }).Instance;

        Assert.Equal(new ZeroingRate(40.0 * MB, 0, RateMethod.AssumedDefault), rate);
        Assert.True(rate.IsAssumed);
        Assert.Contains("assumed", rate.Describe());
    }

    [Fact]
    public void Files_on_several_volumes_get_a_rate_per_volume()
    {
        var facts = Set(Instance(IfiState.Disabled),
        [
            DataFile(5, "Sales", "Sales", path: @"D:\Data\Sales.mdf"),
            DataFile(6, "Archive", "Archive", path: @"E:\Slow\Archive.mdf"),
            DataFile(7, "Staging", "Staging", path: @"F:\Staging\Staging.mdf"),
        ],
        [
            DataGrowth(At, PagesOfMB(1024), 1_000_000, 5, "Sales", "Sales"),                 // 1024 MB/s on D:
            DataGrowth(At.AddHours(1), PagesOfMB(256), 25_600_000, 6, "Archive", "Archive"),  // 10 MB/s on E:
            DataGrowth(At.AddHours(2), PagesOfMB(256), 12_800_000, 6, "Archive", "ARCHIVE"),  // 20 MB/s on E:
        ]);

        var rates = ZeroingRateEstimator.Estimate(facts, Options);

        Assert.Equal(new ZeroingRate(1024.0 * MB, 1, RateMethod.MedianOfVolumeEvents), rates.ForVolume(@"D:\"));
        Assert.Equal(new ZeroingRate(15.0 * MB, 2, RateMethod.MedianOfVolumeEvents), rates.ForVolume(@"E:\"));
        Assert.Equal(new ZeroingRate(1024.0 * MB, 3, RateMethod.MedianOfInstanceEvents), rates.ForVolume(@"F:\")); // 1 GB of 1.5 GB grown at 1024 MB/s
        Assert.Equal(rates.Instance, rates.ForVolume(@"Z:\"));
    }
}
