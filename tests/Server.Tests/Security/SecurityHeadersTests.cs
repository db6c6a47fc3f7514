using System.Net;
using AngleSharp.Html.Parser;
using IfiDashboard.Server.Security;
using IfiDashboard.Server.Tests.Alerts;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.AspNetCore.Components.Endpoints;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace IfiDashboard.Server.Tests.Security;

/// <summary>The headers every answer carries, and pages that a policy without inline script or style leaves whole.</summary>
public sealed class SecurityHeadersTests(SharedPolledInstance polled) : IClassFixture<SharedPolledInstance>
{
    // One server for the class: the tests only read.
    readonly DashboardHost _host = polled.Host;
    readonly long _instanceId = polled.InstanceId;

    List<string> Pages() => AppEndpoints.PagePaths(_host.Services, _instanceId);

    [Fact]
    public async Task Pages_assets_health_and_api_refusals_all_carry_the_security_headers()
    {
        var client = _host.CreateClient();
        var pages = Pages();
        var front = await client.GetStringAsync("/");
        var stylesheet = new HtmlParser().ParseDocument(front).QuerySelector("link[rel=stylesheet]")!.GetAttribute("href")!;
        Assert.True(pages.Count >= 6, $"only {pages.Count} pages found: {string.Join(", ", pages)}");

        foreach (var path in pages.Concat(["/" + stylesheet, "/healthz", "/openapi/v1.json", "/api/v1/instances", "/no-such-page"]))
        {
            using var response = await client.GetAsync(path);
            var headers = response.Headers;
            Assert.True(headers.TryGetValues("Content-Security-Policy", out var csp), $"{path}: no CSP");
            var policy = Assert.Single(csp);
            Assert.Equal(SecurityHeaders.ContentSecurityPolicy, policy);
            Assert.DoesNotContain("unsafe", policy, StringComparison.Ordinal);
            Assert.Contains("frame-ancestors 'none'", policy, StringComparison.Ordinal);
            Assert.Equal("nosniff", Assert.Single(headers.GetValues("X-Content-Type-Options")));
            Assert.Equal("no-referrer", Assert.Single(headers.GetValues("Referrer-Policy")));
            Assert.Equal("DENY", Assert.Single(headers.GetValues("X-Frame-Options")));
            Assert.False(headers.Contains("Strict-Transport-Security"), $"{path}: HSTS over plain HTTP");
        }
    }

    [Fact]
    public async Task Oversized_forms_from_anyone_are_413_with_the_security_headers_and_no_stack_trace()
    {
        // A server of its own on a real socket: an exception that escapes the pipeline is Kestrel's 500 there.
        await using var host = new DashboardHost();
        var port = host.StartOnFreePort();
        using var anonymous = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{port}/") };
        var forms = new Dictionary<string, IEnumerable<KeyValuePair<string, string>>>
        {
            ["a key over 2 KB"] = [new(new string('k', 2049), "v")],
            ["1,025 fields"] = Enumerable.Range(0, 1025).Select(i => KeyValuePair.Create($"f{i}", "v")),
            ["a 4 MiB value"] = [new("v", new string('v', 4 * 1024 * 1024 + 1))],
        };

        foreach (var (what, fields) in forms)
        {
            using var response = await anonymous.PostAsync("/", new FormUrlEncodedContent(fields));
            Assert.True(response.StatusCode == HttpStatusCode.RequestEntityTooLarge, $"{what}: {(int)response.StatusCode}\n{host.Logs.All}");
            Assert.Equal(SecurityHeaders.ContentSecurityPolicy, Assert.Single(response.Headers.GetValues("Content-Security-Policy")));
            Assert.Equal("nosniff", Assert.Single(response.Headers.GetValues("X-Content-Type-Options")));
        }
        Assert.DoesNotContain("   at ", host.Logs.All, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Pages_hold_no_inline_script_style_or_event_handler_that_the_policy_would_block()
    {
        // Signed in as an administrator: every page is then served, those for administrators only included.
        var client = _host.AdministratorClient();
        var parser = new HtmlParser();
        foreach (var path in Pages())
        {
            var document = parser.ParseDocument(await client.GetStringAsync(path));
            Assert.Empty(document.QuerySelectorAll("script:not([src])"));
            Assert.Empty(document.QuerySelectorAll("style"));
            Assert.Empty(document.QuerySelectorAll("[style]").Select(e => $"{path}: {e.OuterHtml}"));
            var handlers = document.All.SelectMany(e => e.Attributes.Where(a => a.Name.StartsWith("on", StringComparison.OrdinalIgnoreCase))
                .Select(a => $"{path}: <{e.LocalName} {a.Name}>"));
            Assert.Empty(handlers);
        }
    }

    [Fact]
    public async Task Over_https_the_answer_sends_hsts_and_the_antiforgery_cookie_is_secure_and_strict()
    {
        var https = _host.CreateClient(new WebApplicationFactoryClientOptions { BaseAddress = new Uri("https://dashboard.bank.test"), HandleCookies = false });
        var http = _host.CreateClient(new WebApplicationFactoryClientOptions { BaseAddress = new Uri("http://dashboard.bank.test"), HandleCookies = false });

        using var secure = await https.GetAsync("/inventory/new");
        using var plain = await http.GetAsync("/inventory/new");

        Assert.Equal(HttpStatusCode.OK, secure.StatusCode);
        Assert.StartsWith("max-age=31536000", Assert.Single(secure.Headers.GetValues("Strict-Transport-Security")), StringComparison.Ordinal);
        var secureCookie = Assert.Single(secure.Headers.GetValues("Set-Cookie"), c => c.StartsWith(".AspNetCore.Antiforgery", StringComparison.Ordinal));
        Assert.Contains("secure", secureCookie, StringComparison.OrdinalIgnoreCase);
        Assert.Contains("samesite=strict", secureCookie, StringComparison.OrdinalIgnoreCase);
        Assert.Contains("httponly", secureCookie, StringComparison.OrdinalIgnoreCase);
        Assert.False(plain.Headers.Contains("Strict-Transport-Security"));
    }

    [Theory]
    [InlineData(null, true)]
    [InlineData("*", true)]
    [InlineData("dashboard.bank.test", false)]
    public async Task A_server_that_accepts_any_host_header_says_so_at_start(string? allowedHosts, bool warned)
    {
        using var logs = new CapturedLogs();
        await using var host = _host.WithWebHostBuilder(builder =>
        {
            if (allowedHosts is not null) builder.UseSetting("AllowedHosts", allowedHosts);
            builder.ConfigureLogging(logging => logging.AddProvider(logs));
        });
        _ = host.Services;

        Assert.Equal(warned, logs.All.Contains("AllowedHosts is '*'", StringComparison.Ordinal));
    }
}
