using IfiDashboard.Shared.Security;
using IfiDashboard.Server.Security;
using IfiDashboard.Server.Tests.Security;
using System.Net;
using AngleSharp.Html.Parser;
using System.Text.Json;
using Microsoft.AspNetCore.Routing;
using Microsoft.AspNetCore.Routing.Patterns;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Api;

public sealed class OpenApiCoverageTests(SharedApiHost shared) : IClassFixture<SharedApiHost>
{
    [Fact]
    public async Task Every_mapped_api_v1_route_and_method_is_in_the_openapi_document()
    {
        var host = shared.Host;
        var document = JsonDocument.Parse(await TestSignIn.AsRole(host.CreateClient(), DashboardRoles.Viewer).GetStringAsync("/openapi/v1.json"));
        var paths = document.RootElement.GetProperty("paths");

        var routes = host.Services.GetRequiredService<EndpointDataSource>().Endpoints
            .OfType<RouteEndpoint>()
            .Where(e => e.RoutePattern.RawText?.StartsWith("/api/v1", StringComparison.Ordinal) == true)
            .SelectMany(e => (e.Metadata.GetMetadata<IHttpMethodMetadata>()?.HttpMethods ?? []).Select(m => (Path: OpenApiPath(e.RoutePattern), Method: m)))
            .ToList();

        Assert.True(routes.Count >= 13, $"only {routes.Count} routes found");
        var missing = routes.Where(r => !paths.TryGetProperty(r.Path, out var item) || !item.TryGetProperty(r.Method.ToLowerInvariant(), out _)).ToList();
        Assert.Empty(missing);
    }

    [Fact]
    public async Task Api_operations_name_their_scope_errors_and_the_key_scheme()
    {
        var host = shared.Host;
        var document = JsonDocument.Parse(await TestSignIn.AsRole(host.CreateClient(), DashboardRoles.Viewer).GetStringAsync("/openapi/v1.json")).RootElement;

        var put = document.GetProperty("paths").GetProperty("/api/v1/instances/{externalKey}").GetProperty("put");
        Assert.Equal("PutInstance", put.GetProperty("operationId").GetString());
        Assert.Contains("inventory:write", put.GetProperty("description").GetString(), StringComparison.Ordinal);
        foreach (var status in new[] { "200", "201", "400", "401", "403", "409", "412", "413", "415", "429" })
            Assert.True(put.GetProperty("responses").TryGetProperty(status, out _), $"PUT lacks {status}");
        Assert.True(put.TryGetProperty("requestBody", out _));
        Assert.Equal("X-Api-Key", document.GetProperty("components").GetProperty("securitySchemes").GetProperty("ApiKey").GetProperty("name").GetString());
    }

    [Fact]
    public async Task Api_reference_page_is_served_at_api()
    {
        var host = shared.Host;

        var response = await TestSignIn.AsRole(host.CreateClient(), DashboardRoles.Viewer).GetAsync("/api/index.html");
        var html = await response.Content.ReadAsStringAsync();

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Contains("swagger", html, StringComparison.OrdinalIgnoreCase);
        Assert.Contains("IfiDashboard API reference", html, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Api_reference_page_works_offline_and_under_a_csp_without_inline_script()
    {
        var host = shared.Host;
        var client = TestSignIn.AsRole(host.CreateClient(), DashboardRoles.Viewer);
        var page = new HtmlParser().ParseDocument(await client.GetStringAsync("/api/index.html"));

        var assets = page.QuerySelectorAll("script").Select(s => s.GetAttribute("src"))
            .Concat(page.QuerySelectorAll("link[rel=stylesheet]").Select(l => l.GetAttribute("href")))
            .ToList();
        var configuration = await client.GetStringAsync("/api/index.js");

        // ./swagger-ui.css, ./index.css, ./swagger-ui-bundle.js, ./swagger-ui-standalone-preset.js, index.js
        Assert.True(assets.Count >= 5, $"only {assets.Count} scripts and stylesheets linked");
        Assert.All(assets, src => Assert.False(string.IsNullOrEmpty(src), "an inline script or style"));
        Assert.All(page.QuerySelectorAll("script, style"), e => Assert.True(string.IsNullOrWhiteSpace(e.TextContent), "inline script or style"));
        foreach (var asset in assets)
        {
            Assert.DoesNotContain("//", asset!, StringComparison.Ordinal); // nothing from another host
            var served = await client.GetAsync(new Uri(new Uri(client.BaseAddress!, "/api/"), asset));
            Assert.Equal(HttpStatusCode.OK, served.StatusCode);
            Assert.NotEmpty(await served.Content.ReadAsByteArrayAsync());
        }
        // Swagger UI's default would send the document to an online validator and show its badge.
        Assert.Contains("configObject.validatorUrl = null", configuration, StringComparison.Ordinal);
        Assert.DoesNotContain("\"validatorUrl\":", configuration, StringComparison.Ordinal);
        Assert.Contains("\"url\":\"/openapi/v1.json\"", configuration, StringComparison.Ordinal);
    }

    // "/api/v1/collector/leases/{instanceId:long}/complete" → "/api/v1/collector/leases/{instanceId}/complete"
    static string OpenApiPath(RoutePattern pattern) =>
        "/" + string.Join("/", pattern.PathSegments.Select(segment => string.Concat(segment.Parts.Select(part => part switch
        {
            RoutePatternLiteralPart literal => literal.Content,
            RoutePatternParameterPart parameter => "{" + parameter.Name + "}",
            RoutePatternSeparatorPart separator => separator.Content,
            _ => "",
        }))));
}
