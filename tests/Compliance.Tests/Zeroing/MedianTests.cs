using IfiDashboard.Compliance.Zeroing;

namespace IfiDashboard.Compliance.Tests;

public class MedianTests
{
    [Theory]
    [InlineData(new double[] { 5 }, 5)]
    [InlineData(new double[] { 3, 1, 2 }, 2)]
    [InlineData(new double[] { 4, 1, 3, 2 }, 2.5)]
    [InlineData(new double[] { 5e6, 3e9, 8e7 }, 8e7)]
    public void Median_is_the_middle_value(double[] values, double median) => Assert.Equal(median, Median.Of(values));

    [Fact]
    public void Median_of_nothing_is_null() => Assert.Null(Median.Of([]));

    [Fact]
    public void Weighted_median_is_the_value_where_half_the_weight_is_reached()
    {
        // 80 MB/s over 64 MB, 100 MB/s over 256 MB, 125 MB/s over 1 GB: the 1 GB growth carries most of the bytes.
        Assert.Equal(125, Median.Weighted([(80, 64), (100, 256), (125, 1024)]));
        Assert.Equal(100, Median.Weighted([(80, 64), (100, 1024), (125, 256)]));
    }

    [Fact]
    public void Weighted_median_halfway_between_two_values_is_their_mean() =>
        Assert.Equal(150, Median.Weighted([(100, 512), (200, 512)]));

    [Fact]
    public void Weighted_median_ignores_samples_without_weight() =>
        Assert.Equal(7, Median.Weighted([(1, 0), (7, 3), (1000, -2)]));

    [Fact]
    public void Median_of_two_huge_values_does_not_overflow() =>
        Assert.Equal(double.MaxValue, Median.Of([double.MaxValue, double.MaxValue]));
}
