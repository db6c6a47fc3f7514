using IfiDashboard.Shared.Compliance.Zeroing;

namespace IfiDashboard.Shared.Tests.Compliance;

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
    public void Median_of_two_huge_values_does_not_overflow() =>
        Assert.Equal(double.MaxValue, Median.Of([double.MaxValue, double.MaxValue]));
}
