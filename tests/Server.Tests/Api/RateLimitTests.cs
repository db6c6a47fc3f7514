using System.Net;
using Microsoft.AspNetCore.Hosting;

namespace IfiDashboard.Server.Tests.Api;

public sealed class RateLimitTests
{
    [Fact]
    public async Task A_key_over_its_window_gets_429_with_retry_after_while_other_keys_go_on()
    {
        await using var host = new ApiHost(b =>
        {
            b.UseSetting("Api:RateLimit:PermitLimit", "3");
            b.UseSetting("Api:RateLimit:WindowSeconds", "3600");
        });
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
}
