using IfiDashboard.Compliance.Status;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests;

public class StalenessTests
{
    [Theory]
    [InlineData(5, 14, false)]
    [InlineData(5, 15, false)]
    [InlineData(5, 16, true)]
    [InlineData(60, 179, false)]
    [InlineData(60, 181, true)]
    public void Last_good_poll_older_than_three_intervals_is_stale(int intervalMinutes, int ageMinutes, bool stale) =>
        Assert.Equal(stale, Staleness.IsStale(Now.AddMinutes(-ageMinutes), TimeSpan.FromMinutes(intervalMinutes), Now));

    [Fact]
    public void Never_polled_instance_is_not_called_stale() =>
        Assert.False(Staleness.IsStale(null, TimeSpan.FromMinutes(5), Now));
}
