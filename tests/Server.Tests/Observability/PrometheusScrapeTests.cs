using System.Net;
using System.Net.Http.Headers;
using IfiDashboard.Collector.Telemetry;
using IfiDashboard.Server.Security;
using IfiDashboard.Server.Api.Keys;
using IfiDashboard.Server.Observability;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Server.Tests.Security;
using IfiDashboard.Shared.Security;
using IfiDashboard.Simulator.Scenarios;
using IfiDashboard.Tests.Support;
using Microsoft.Extensions.DependencyInjection;
using IfiDashboard.Store.Inventory;

namespace IfiDashboard.Server.Tests.Observability;

/// <summary>
/// Prometheus scrapes the server's metrics beside OTLP: at <c>/metrics</c> with a <c>read</c> key (as its
/// <c>authorization</c> setting sends it) or as a signed-in Viewer, or without sign-in on the port
/// <c>Prometheus:AnonymousScrapeUrl</c> opens.
/// </summary>
public sealed class PrometheusScrapeTests
{
    /// <summary>The collector's poll counter as Prometheus names it (the meter's dots become underscores).</summary>
    const string PollsMetric = "ifidashboard_collector_polls";

    [Fact]
    public async Task Metrics_are_scraped_with_a_read_key_or_as_a_viewer_and_refused_otherwise()
    {
        await using var host = new DashboardHost(new ScenarioInstance { Name = "scraped", Profile = "2019", IfiEnabled = true });
        await host.RegisterFleetAsync();
        Assert.Equal(1, await host.PollAllAsync());
        var issuer = host.Services.GetRequiredService<ApiKeyIssuer>();
        var (_, readKey) = await issuer.CreateAsync("prometheus", [ApiScopes.Read], null, CancellationToken.None);
        var (_, writeKey) = await issuer.CreateAsync("cmdb", [ApiScopes.InventoryWrite], null, CancellationToken.None);

        var prometheus = TestSignIn.Anonymous(host.CreateClient());
        prometheus.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", readKey);
        Assert.Equal("alive", await prometheus.GetStringAsync("/healthz")); // a request for the server's HTTP metrics
        var scraped = await prometheus.GetAsync(TelemetryExtensions.MetricsPath);
        var text = await scraped.Content.ReadAsStringAsync();
        var viewer = await TestSignIn.AsRole(host.CreateClient(), DashboardRoles.Viewer).GetAsync(TelemetryExtensions.MetricsPath);
        var anonymous = await TestSignIn.Anonymous(host.CreateClient()).GetAsync(TelemetryExtensions.MetricsPath);
        var writer = TestSignIn.Anonymous(host.CreateClient());
        writer.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", writeKey);
        var wrongScope = await writer.GetAsync(TelemetryExtensions.MetricsPath);

        Assert.Equal(HttpStatusCode.OK, scraped.StatusCode);
        Assert.Equal("text/plain", scraped.Content.Headers.ContentType?.MediaType);
        Assert.Contains($"{PollsMetric}_total{{", text, StringComparison.Ordinal);
        Assert.Contains("http_server_request_duration_seconds", text, StringComparison.Ordinal);
        Assert.DoesNotContain(DashboardHost.Password, text, StringComparison.Ordinal);
        Assert.DoesNotContain(host.Store.ConnectionString, text, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, viewer.StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, anonymous.StatusCode);
        // A scraper reads a refusal as a machine does, not a sign-in page.
        Assert.Equal("application/problem+json", anonymous.Content.Headers.ContentType?.MediaType);
        Assert.Equal(HttpStatusCode.Forbidden, wrongScope.StatusCode);
        Assert.Equal("application/problem+json", wrongScope.Content.Headers.ContentType?.MediaType);
    }

    [Fact]
    public async Task The_anonymous_scrape_port_serves_the_metrics_without_sign_in_and_the_server_port_still_asks_for_it()
    {
        var port = LoopbackPorts.Unassigned();
        await using var host = new DashboardHost(new ScenarioInstance { Name = "scraped-anonymously", Profile = "2019", IfiEnabled = true });
        host.Settings[TelemetryExport.AnonymousScrapeKey] = $"http://127.0.0.1:{port}/";
        await host.RegisterFleetAsync();
        Assert.Equal(1, await host.PollAllAsync());

        using var prometheus = new HttpClient();
        var scraped = await prometheus.GetAsync($"http://127.0.0.1:{port}{TelemetryExtensions.MetricsPath}");
        var text = await scraped.Content.ReadAsStringAsync();
        var onTheServersPort = await TestSignIn.Anonymous(host.CreateClient()).GetAsync(TelemetryExtensions.MetricsPath);

        Assert.Equal(HttpStatusCode.OK, scraped.StatusCode);
        Assert.Contains($"{PollsMetric}_total{{", text, StringComparison.Ordinal);
        Assert.DoesNotContain(host.Store.ConnectionString, text, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.Unauthorized, onTheServersPort.StatusCode);
    }
}
