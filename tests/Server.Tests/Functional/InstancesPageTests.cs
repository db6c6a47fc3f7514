using AngleSharp.Html.Parser;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// The walking skeleton end to end: SqlClient polls simulated instances over TCP, the snapshots land in SQLite,
/// and the first page lists each instance with the IFI state that was read.
/// </summary>
public sealed class InstancesPageTests
{
    static ScenarioInstance[] Fleet() =>
    [
        new() { Name = "prod-ifi-on", Profile = "2019", IfiEnabled = true, ServiceAccount = @"NT Service\MSSQLSERVER" },
        new() { Name = "prod-ifi-off", Profile = "2022", IfiEnabled = false, ServiceAccount = @"CORP\svc_sql" },
        new() { Name = "legacy-2012", Profile = "2012-SP3", IfiEnabled = true },
        new() { Name = "gone", Profile = "2019", Faults = new() { RefuseConnections = true } },
    ];

    [Fact]
    public async Task Page_lists_every_instance_with_the_ifi_state_the_collector_read()
    {
        await using var host = new DashboardHost(Fleet());
        await host.RegisterFleetAsync();

        var polled = await host.PollAllAsync();
        var html = await host.CreateClient().GetStringAsync("/");

        Assert.Equal(4, polled);
        var document = new HtmlParser().ParseDocument(html);
        string Cell(string instance, int column) =>
            document.QuerySelector($"tr[data-instance='{instance}']")!.Children[column].TextContent.Trim();
        string Ifi(string instance) =>
            document.QuerySelector($"tr[data-instance='{instance}'] [data-ifi-state]")!.GetAttribute("data-ifi-state")!;

        Assert.Equal("Enabled", Ifi("prod-ifi-on"));
        Assert.Equal("Disabled", Ifi("prod-ifi-off"));
        Assert.Equal("Unknown", Ifi("legacy-2012"));
        Assert.Contains("build too old", Cell("legacy-2012", 5), StringComparison.Ordinal);
        Assert.Contains("unreachable", Cell("gone", 5), StringComparison.Ordinal);
        Assert.Equal(@"CORP\svc_sql", Cell("prod-ifi-off", 4));
        Assert.Contains("SQL Server 2022", Cell("prod-ifi-off", 2), StringComparison.Ordinal);
        Assert.Contains("16.0.4135.4", Cell("prod-ifi-off", 2), StringComparison.Ordinal);
        Assert.NotEqual("never", Cell("prod-ifi-on", 6));
        Assert.Equal("1", document.QuerySelector("[data-count='enabled']")!.TextContent.Trim());
        Assert.Equal("4 / 4", document.QuerySelector("[data-count='polled']")!.TextContent.Trim());
    }

    [Fact]
    public async Task Instance_registered_but_not_polled_shows_unknown_not_polled_yet()
    {
        await using var host = new DashboardHost(new ScenarioInstance { Name = "fresh", Profile = "2019", IfiEnabled = true });
        await host.RegisterFleetAsync();

        var html = await host.CreateClient().GetStringAsync("/");

        var document = new HtmlParser().ParseDocument(html);
        var badge = document.QuerySelector("tr[data-instance='fresh'] [data-ifi-state]")!;
        Assert.Equal("Unknown", badge.GetAttribute("data-ifi-state"));
        Assert.Contains("not polled yet", badge.TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Empty_fleet_says_so()
    {
        await using var host = new DashboardHost();

        var html = await host.CreateClient().GetStringAsync("/");

        Assert.Contains("No instances are registered yet.", html, StringComparison.Ordinal);
    }

    [Fact]
    public async Task No_password_reaches_the_page_or_the_store()
    {
        await using var host = new DashboardHost(Fleet());
        await host.RegisterFleetAsync();
        await host.PollAllAsync();

        var html = await host.CreateClient().GetStringAsync("/");
        var storeText = await StoreDump.AllTextAsync(host.Services);

        Assert.DoesNotContain(DashboardHost.Password, html, StringComparison.Ordinal);
        Assert.DoesNotContain(DashboardHost.Password, storeText, StringComparison.Ordinal);
        Assert.Contains("prod-ifi-on", storeText, StringComparison.Ordinal);
    }
}
