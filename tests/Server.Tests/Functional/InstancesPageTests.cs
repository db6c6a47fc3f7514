using AngleSharp.Html.Dom;
using AngleSharp.Html.Parser;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// The walking skeleton end to end: SqlClient polls simulated instances over TCP, the snapshots land in SQLite,
/// the fleet is assessed, and the pages show each instance with the IFI state that was read. The checks that only read
/// share one polled fleet (<see cref="PolledFleet"/>): its unreachable instance costs a whole connect timeout to poll.
/// </summary>
public sealed class InstancesPageTests(InstancesPageTests.PolledFleet polled) : IClassFixture<InstancesPageTests.PolledFleet>
{
    static ScenarioInstance[] Fleet() =>
    [
        new() { Name = "prod-ifi-on", Profile = "2019", IfiEnabled = true, ServiceAccount = @"NT Service\MSSQLSERVER" },
        new() { Name = "prod-ifi-off", Profile = "2022", IfiEnabled = false, ServiceAccount = @"CORP\svc_sql" },
        new() { Name = "legacy-2012", Profile = "2012-SP3", IfiEnabled = true },
        new() { Name = "gone", Profile = "2019", Faults = new() { RefuseConnections = true } },
    ];

    static async Task<IHtmlDocument> GetAsync(DashboardHost host, string path) =>
        new HtmlParser().ParseDocument(await host.CreateClient().GetStringAsync(path));

    /// <summary>Pages read the background assessment; after driving polls by hand, bring it up to date at once.</summary>
    static Task AssessAsync(DashboardHost host) =>
        host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);

    /// <summary>The fleet registered, polled once and assessed, for every test of the class that only reads.</summary>
    public sealed class PolledFleet : IAsyncLifetime
    {
        public DashboardHost Host { get; } = new(Fleet());
        /// <summary>What the one round of polls reported polling.</summary>
        public int Polled { get; private set; }

        public async Task InitializeAsync()
        {
            await Host.RegisterFleetAsync();
            Polled = await Host.PollAllAsync();
            await AssessAsync(Host);
        }

        public async Task DisposeAsync() => await Host.DisposeAsync();
    }

    [Fact]
    public async Task The_csv_export_linked_from_the_grid_serves_every_row_of_the_view_in_its_order()
    {
        var host = polled.Host;

        var grid = await GetAsync(host, "/instances?q=prod-ifi&sort=name&dir=desc&size=25");
        var href = grid.QuerySelector("a[data-export=csv]")!.GetAttribute("href")!;
        using var response = await host.CreateClient().GetAsync("/" + href);

        Assert.Equal("text/csv", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal("instances.csv", response.Content.Headers.ContentDisposition?.FileNameStar ?? response.Content.Headers.ContentDisposition?.FileName);
        var lines = (await response.Content.ReadAsStringAsync()).TrimStart('\uFEFF').Split("\r\n", StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(["prod-ifi-on", "prod-ifi-off"], lines.Skip(1).Select(l => l.Split(',')[0]));
        Assert.StartsWith("Instance,Status,", lines[0], StringComparison.Ordinal);
        // Where to reach it, the account the collector read, and since when its IFI state holds: the engine start its
        // one poll reported (the engine reads the privilege when it starts).
        var header = lines[0].Split(',').ToList();
        var off = lines[2].Split(',');
        string Column(string name) => off[header.IndexOf(name)];
        var fleet = await host.Services.GetRequiredService<IfiDashboard.Compliance.Assessment.IFleetAssessments>().GetAsync(CancellationToken.None);
        var instance = fleet.Instances.Single(i => i.Registration.Name == "prod-ifi-off");
        Assert.Equal((instance.Registration.Host, instance.Registration.Port?.ToString(System.Globalization.CultureInfo.InvariantCulture)), (Column("Host"), Column("Port")));
        Assert.Equal(@"CORP\svc_sql", Column("Service account"));
        Assert.Equal(instance.Facts.ServiceStartedAt!.Value.UtcDateTime.ToString("yyyy-MM-dd HH:mm:ss", System.Globalization.CultureInfo.InvariantCulture),
            Column("IFI since (UTC)"));
    }

    [Fact]
    public async Task A_pasted_grid_address_is_served_as_that_view_and_its_export_holds_every_column()
    {
        var host = polled.Host;

        var grid = await GetAsync(host, "/instances?q=prod-ifi&policy=required&sort=name&dir=desc&cols=ifi,version");

        Assert.Equal(["prod-ifi-on", "prod-ifi-off"], FleetGrid.Names(grid));
        Assert.Equal(["Instance", "Version", "IFI"], grid.QuerySelectorAll("table[data-grid=instances] thead th").Select(th => th.TextContent.Trim()));
        Assert.NotNull(grid.QuerySelector("th[aria-sort=descending] button[data-sort=Name]"));
        Assert.True(grid.QuerySelector("select[name=policy] option[value=Required]")!.HasAttribute("selected"));
        Assert.Equal(["Name", "Version", "Ifi"],
            grid.QuerySelectorAll("[data-column-choice] input[checked]").Select(box => box.GetAttribute("data-column")));
        var href = grid.QuerySelector("a[data-export=csv]")!.GetAttribute("href")!;
        Assert.Equal("instances/export.csv?policy=Required&q=prod-ifi&sort=name&dir=desc", href);
        var lines = (await host.CreateClient().GetStringAsync("/" + href)).TrimStart('\uFEFF').Split("\r\n", StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(string.Join(',', IfiDashboard.Client.Pages.Instances.InstanceCsv.Header), lines[0]);
        Assert.Equal(["prod-ifi-on", "prod-ifi-off"], lines.Skip(1).Select(l => l.Split(',')[0]));
    }

    [Fact]
    public async Task Grid_lists_every_instance_with_the_ifi_state_the_collector_read()
    {
        var host = polled.Host;

        var document = await GetAsync(host, "/instances");

        Assert.Equal(4, polled.Polled);
        string Cell(string instance, string column) => FleetGrid.Cell(document, instance, column)!.TextContent.Trim();
        string Ifi(string instance) => FleetGrid.Cell(document, instance, "ifi")!.QuerySelector("[data-ifi-state]")!.GetAttribute("data-ifi-state")!;
        Assert.Equal("Enabled", Ifi("prod-ifi-on"));
        Assert.Equal("Disabled", Ifi("prod-ifi-off"));
        Assert.Equal("Unknown", Ifi("legacy-2012"));
        Assert.Contains("build too old", Cell("legacy-2012", "ifi"), StringComparison.Ordinal);
        Assert.Contains("unreachable", Cell("gone", "ifi"), StringComparison.Ordinal);
        var version = FleetGrid.Cell(document, "prod-ifi-off", "version")!.QuerySelector("[title]")!.GetAttribute("title");
        Assert.Contains("SQL Server 2022", version, StringComparison.Ordinal);
        Assert.Contains("16.0.4135.4", version, StringComparison.Ordinal);
        Assert.StartsWith("2022", Cell("prod-ifi-off", "version"), StringComparison.Ordinal);
        Assert.NotEqual("never", Cell("prod-ifi-on", "last-poll"));
        Assert.Equal("NonCompliant", document.QuerySelector("a[data-instance='prod-ifi-off']")!.GetAttribute("data-status"));
    }

    [Fact]
    public async Task Overview_counts_statuses_and_the_detail_page_shows_the_engine_account()
    {
        var host = polled.Host;

        var overview = await GetAsync(host, "/");
        var detail = await GetAsync(host, $"/instances/{host.IdOf("prod-ifi-off")}");

        string Count(string status) => overview.QuerySelector($"[data-count='{status}'] .tile-value")!.TextContent.Trim();
        Assert.Equal("1", Count("Compliant"));
        Assert.Equal("1", Count("NonCompliant"));
        Assert.Equal("2", Count("Unknown"));
        Assert.Null(overview.QuerySelector("[data-progress]"));
        Assert.Contains(@"CORP\svc_sql", detail.QuerySelector(".facts")!.TextContent, StringComparison.Ordinal);
        Assert.Equal("GrantPrivilege", detail.QuerySelector("[data-remediation]")!.GetAttribute("data-remediation"));
    }

    [Fact]
    public async Task Instance_registered_but_not_polled_shows_unknown_not_polled_yet()
    {
        await using var host = new DashboardHost(new ScenarioInstance { Name = "fresh", Profile = "2019", IfiEnabled = true });
        await host.RegisterFleetAsync();
        await AssessAsync(host);

        var document = await GetAsync(host, "/instances");
        var overview = await GetAsync(host, "/");

        var badge = FleetGrid.Cell(document, "fresh", "ifi")!.QuerySelector("[data-ifi-state]")!;
        Assert.Equal("Unknown", badge.GetAttribute("data-ifi-state"));
        Assert.Contains("not polled yet", badge.TextContent, StringComparison.Ordinal);
        Assert.Contains("Polled 0 of 1", overview.QuerySelector("[data-progress]")!.TextContent.Replace("\n", " "), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Empty_fleet_says_so()
    {
        await using var host = new DashboardHost();

        var html = await host.CreateClient().GetStringAsync("/");

        Assert.Contains("No instances are registered yet.", html, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Unknown_instance_id_answers_404()
    {
        var host = polled.Host;

        var response = await host.CreateClient().GetAsync("/instances/424242");

        Assert.Equal(System.Net.HttpStatusCode.NotFound, response.StatusCode);
    }

    [Fact]
    public async Task No_password_reaches_the_pages_or_the_store()
    {
        var host = polled.Host;

        var client = host.CreateClient();
        var html = await client.GetStringAsync("/") + await client.GetStringAsync("/instances")
                   + await client.GetStringAsync($"/instances/{host.IdOf("prod-ifi-on")}");
        var storeText = await StoreDump.AllTextAsync(host.Services);

        Assert.DoesNotContain(DashboardHost.Password, html, StringComparison.Ordinal);
        Assert.DoesNotContain(DashboardHost.Password, storeText, StringComparison.Ordinal);
        Assert.Contains("prod-ifi-on", storeText, StringComparison.Ordinal);
    }
}
