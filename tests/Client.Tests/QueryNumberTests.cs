using IfiDashboard.Client.Components;

namespace IfiDashboard.Client.Tests;

/// <summary>The one rule by which pages read a number from their address or a hidden field.</summary>
public sealed class QueryNumberTests
{
    [Theory]
    [InlineData("42", 42L)]
    [InlineData("0", null)]
    [InlineData("-1", null)]
    [InlineData("+1", null)]
    [InlineData(" 1", null)]
    [InlineData("1e3", null)]
    [InlineData("1,000", null)]
    [InlineData("abc", null)]
    [InlineData("", null)]
    [InlineData(null, null)]
    [InlineData("99999999999999999999", null)]
    [InlineData("٤٢", null)] // Arabic-Indic digits: not read as 42 in any culture
    public void An_id_is_positive_digits_only(string? text, long? expected) =>
        Assert.Equal(expected, QueryNumber.Id(text));

    [Theory]
    [InlineData("0", 0)]
    [InlineData("7", 7)]
    [InlineData("-7", null)]
    [InlineData("7.0", null)]
    [InlineData("3000000000", null)]
    public void A_count_is_zero_or_more_digits_only(string? text, int? expected) =>
        Assert.Equal(expected, QueryNumber.Count(text));
}
