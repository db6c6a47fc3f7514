using System.Text.Json;
using AngleSharp.Html.Parser;
using IfiDashboard.Server.Api.Keys;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// Azure SQL Database and Managed Instance through the real collector over TCP: named as the Azure products they
/// are (their ProductVersion 12.0.2000.8 is an engine version, not SQL Server 2014), never "Windows".
/// </summary>
public sealed class AzurePlatformTests
{
    [Theory]
    [InlineData("azure-sql-db", "Azure SQL Database")]
    [InlineData("managed-instance", "Azure SQL Managed Instance")]
    public async Task Azure_platforms_are_labelled_as_such_not_as_sql_server_2014_on_windows(string profile, string product)
    {
        await using var host = new DashboardHost(new ScenarioInstance { Name = "paas", Profile = profile });
        await host.RegisterFleetAsync();
        await host.PollAllAsync();
        var fleet = await host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
        var id = fleet.Instances.Single().Registration.Id;

        var grid = new HtmlParser().ParseDocument(await host.CreateClient().GetStringAsync("/instances"));
        var detail = new HtmlParser().ParseDocument(await host.CreateClient().GetStringAsync($"/instances/{id}"));

        var version = FleetGrid.Cell(grid, "paas", "version")!.QuerySelector("[title]")!;
        Assert.StartsWith(product, version.TextContent.Trim(), StringComparison.Ordinal);
        Assert.DoesNotContain("2014", version.GetAttribute("title"), StringComparison.Ordinal);
        var identity = detail.QuerySelector("#h-identity")!.ParentElement!.TextContent;
        Assert.Contains(product, identity, StringComparison.Ordinal);
        Assert.DoesNotContain("SQL Server 2014", identity, StringComparison.Ordinal);
        Assert.DoesNotContain("Windows", identity, StringComparison.Ordinal);

        // The API names what the pages name (issue 29: it said "SQL Server 2014" on "Windows").
        var api = host.CreateClient();
        api.DefaultRequestHeaders.Add("X-Api-Key",
            (await host.Services.GetRequiredService<ApiKeyIssuer>().CreateAsync("reader", ["read"], null, CancellationToken.None)).Key);
        var resource = JsonDocument.Parse(await api.GetStringAsync($"/api/v1/compliance/instances/{id}")).RootElement;
        Assert.Equal(product, resource.GetProperty("release").GetString());
        Assert.Equal("Azure", resource.GetProperty("platform").GetString());
        var row = JsonDocument.Parse(await api.GetStringAsync("/api/v1/compliance/instances")).RootElement.GetProperty("items")[0];
        Assert.Equal(product, row.GetProperty("release").GetString());
    }
}
