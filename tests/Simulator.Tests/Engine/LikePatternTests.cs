using IfiDashboard.Simulator.Engine.Binding;

namespace IfiDashboard.Simulator.Tests.Engine;

public sealed class LikePatternTests
{
    [Theory]
    [InlineData("SQL Server (MSSQLSERVER)", "SQL Server%", true)]
    [InlineData("SQL Server Agent (MSSQLSERVER)", "SQL Server (%", false)]
    [InlineData("sql server (X)", "SQL SERVER (%)", true)]
    [InlineData("abc", "a_c", true)]
    [InlineData("abbc", "a_c", false)]
    [InlineData("abc", "%", true)]
    [InlineData("", "%", true)]
    [InlineData("", "_", false)]
    [InlineData("abc", "%c", true)]
    [InlineData("abc", "%b", false)]
    [InlineData("a%c", "a[%]c", true)]
    [InlineData("abc", "a[%]c", false)]
    [InlineData("b1", "[a-c][0-9]", true)]
    [InlineData("d1", "[^a-c]1", true)]
    [InlineData("b1", "[^a-c]1", false)]
    public void Like_matches_percent_underscore_and_sets(string value, string pattern, bool expected)
    {
        Assert.Equal(expected, LikePattern.IsMatch(value, pattern));
    }
}
