using System.Net;
using Microsoft.AspNetCore.Hosting;

namespace IfiDashboard.Server.Tests.Api;

[Trait(Store.TestDatabase.PostgresPassTrait, Store.TestDatabase.PostgresPassValue)]
public sealed class RateLimitTests
{
    [Fact]
    public async Task A_key_over_its_window_gets_429_with_retry_after_while_other_keys_go_on()
    {
        await using var host = new ApiHost(b => Limit(b, 3));
        var busy = host.Client(await host.CreateKeyAsync("read"));
        var quiet = host.Client(await host.CreateKeyAsync("read"));

        for (var i = 0; i < 3; i++)
            Assert.Equal(HttpStatusCode.OK, (await busy.GetAsync("/api/v1/instances")).StatusCode);
        var limited = await busy.GetAsync("/api/v1/instances");
        var other = await quiet.GetAsync("/api/v1/instances");

        Assert.Equal(HttpStatusCode.TooManyRequests, limited.StatusCode);
        Assert.Equal("application/problem+json", limited.Content.Headers.ContentType?.MediaType);
        Assert.True(limited.Headers.RetryAfter?.Delta > TimeSpan.Zero);
        Assert.Equal(HttpStatusCode.OK, other.StatusCode);
    }

    [Fact]
    public async Task Every_answer_says_the_policy_and_what_is_left_of_it_in_the_IETF_drafts_headers()
    {
        await using var host = new ApiHost(b => Limit(b, 3));
        var client = host.Client(await host.CreateKeyAsync("read"));

        var answers = new List<HttpResponseMessage>();
        for (var i = 0; i < 4; i++)
            answers.Add(await client.GetAsync(i == 1 ? "/api/v1/instances/NOPE" : "/api/v1/instances"));

        Assert.Equal([HttpStatusCode.OK, HttpStatusCode.NotFound, HttpStatusCode.OK, HttpStatusCode.TooManyRequests], answers.Select(a => a.StatusCode));
        Assert.All(answers, a => Assert.Equal("\"api-key\";q=3;w=3600", Header(a, "RateLimit-Policy")));
        Assert.Equal(["2", "1", "0", "0"], answers.Select(a => Field(Header(a, "RateLimit"), "r")));
        Assert.All(answers, a => Assert.InRange(int.Parse(Field(Header(a, "RateLimit"), "t")), 1, 3600));
    }

    [Fact]
    public async Task Two_servers_on_one_store_share_each_keys_limit()
    {
        // Servers share a PostgreSQL store; a SQLite store has one server, which counts in memory (docs/api.md). So
        // this runs in the PostgreSQL pass (IFI_TEST_STORE=postgres).
        if (!Store.TestDatabase.IsPostgres)
            return;
        await using var first = new ApiHost(b => Limit(b, 5));
        var store = first.StoreArguments.Select(a => a.Split('=', 2)).ToDictionary(a => a[0].TrimStart('-'), a => a[1]);
        await using var second = new ApiHost(b => Limit(b, 5)
            .UseSetting("Store:Provider", store["Store:Provider"])
            .UseSetting("Store:ConnectionString", store["Store:ConnectionString"]));
        var key = await first.CreateKeyAsync("read");
        HttpClient[] servers = [first.Client(key), second.Client(key)];

        var statuses = new List<HttpStatusCode>();
        for (var i = 0; i < 7; i++)
            statuses.Add((await servers[i % 2].GetAsync("/api/v1/instances")).StatusCode);

        // Five in all, whichever server answered; alone, each would have allowed five.
        Assert.Equal([.. Enumerable.Repeat(HttpStatusCode.OK, 5), HttpStatusCode.TooManyRequests, HttpStatusCode.TooManyRequests], statuses);
    }

    static IWebHostBuilder Limit(IWebHostBuilder builder, int permits) => builder
        .UseSetting("Api:RateLimit:PermitLimit", permits.ToString(System.Globalization.CultureInfo.InvariantCulture))
        // An hour: the window a test's requests fall in does not end while it runs.
        .UseSetting("Api:RateLimit:WindowSeconds", "3600");

    static string Header(HttpResponseMessage response, string name) => string.Join(",", response.Headers.GetValues(name));

    // "api-key";r=2;t=3600 → r: 2
    static string Field(string header, string name) =>
        header.Split(';').Select(p => p.Split('=', 2)).Single(p => p[0] == name)[1];
}
