using System.Net;
using AngleSharp.Html.Parser;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// A number in a page's address that is not a number (a mangled or hand-edited link) is read as absent, as the grid's
/// filters are: the page answers, never a server error.
/// </summary>
public sealed class QueryValuesTests(SharedPolledInstance polled) : IClassFixture<SharedPolledInstance>
{
    public static TheoryData<string> AddressesWithNonNumbers() =>
    [
        "/policy?version=abc", "/policy?revoke=abc", "/policy?revoke=-1", "/changes?days=abc", "/audit?before=abc",
        "/alerts/silences?instance=abc", "/alerts/silences?end=abc", "/inventory?retire=abc", "/inventory?page=abc",
        "/inventory?retire=99999999999999999999", "/instances/{id}?events=abc",
    ];

    [Theory]
    [MemberData(nameof(AddressesWithNonNumbers))]
    public async Task A_non_number_where_a_number_is_expected_is_read_as_absent(string address)
    {
        // Every address only reads: one polled instance serves them all.
        var client = polled.Host.CreateClient();
        var path = address.Replace("{id}", polled.InstanceId.ToString(System.Globalization.CultureInfo.InvariantCulture), StringComparison.Ordinal);
        var withoutQuery = path[..path.IndexOf('?', StringComparison.Ordinal)];

        var response = await client.GetAsync(path);
        var expected = await client.GetAsync(withoutQuery);

        // The same page as without the value: its title and heading (the rest may still be streaming in).
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var page = new HtmlParser().ParseDocument(await response.Content.ReadAsStringAsync());
        var plain = new HtmlParser().ParseDocument(await expected.Content.ReadAsStringAsync());
        Assert.Equal(plain.Title, page.Title);
        var heading = plain.QuerySelector("main h1")?.TextContent;
        Assert.False(string.IsNullOrWhiteSpace(heading));
        Assert.Equal(heading, page.QuerySelector("main h1")?.TextContent);
    }
}
