using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;

namespace IfiDashboard.Server.Tests.Compliance;

public sealed class SharedStringsTests
{
    [Fact]
    public void Equal_values_come_back_as_the_first_object_seen()
    {
        var names = new SharedStrings();
        var first = new string("tempdev".AsSpan());
        var second = new string("tempdev".AsSpan());

        Assert.Same(first, names.Share(first));
        Assert.Same(first, names.Share(second));
    }

    [Fact]
    public void Values_that_differ_only_in_case_stay_apart()
    {
        var names = new SharedStrings();

        Assert.Equal("Sales", names.Share("Sales"));
        Assert.Equal("sales", names.Share("sales"));
    }
}
