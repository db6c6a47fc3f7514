using AngleSharp.Html.Parser;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Store.Policy;
using IfiDashboard.Server.Tests.Api.Compliance;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// What growth time counts as lost, through the real collector over TCP: not while IFI is unknown (the figure is then
/// unknown, and the growth timings are shown as evidence), and not where policy forbids IFI (that is its cost).
/// </summary>
public sealed class TimeLostEvidenceTests
{
    static readonly DateTimeOffset Yesterday = DateTimeOffset.UtcNow.AddDays(-1);

    static ScenarioDatabase Sales => new()
    {
        Name = "Sales", Id = 5, Files =
        [
            new ScenarioDatabaseFile { Name = "Sales", PhysicalName = @"D:\Data\Sales.mdf", SizePages = 1_310_720, Growth = 524_288 },
            new ScenarioDatabaseFile { Name = "Sales_log", PhysicalName = @"L:\Log\Sales.ldf", Type = DatabaseFileType.Log, SizePages = 65_536, Growth = 8192 },
        ],
    };

    static ScenarioGrowthEvent Growth(int hours, long microseconds, int pages) => new()
    {
        EventClass = 92, Database = "Sales", FileName = "Sales", StartTime = Yesterday.AddHours(hours),
        DurationMicroseconds = microseconds, GrowthPages = pages,
    };

    static ScenarioInstance[] Fleet() =>
    [
        // The services DMV is refused (IFI unknown) but the trace is readable: +4 GB in 2 ms, twice.
        new() { Name = "unknown-fast", Profile = "2019", IfiEnabled = true, Databases = [Sales],
            Logins = [new ScenarioLogin { Name = DashboardHost.Login, Password = DashboardHost.Password, Permissions = ["ALTER TRACE", "VIEW ANY DEFINITION"] }],
            GrowthEvents = [Growth(0, 2_000, 524_288), Growth(1, 2_000, 524_288)] },
        // The same, but its growths are 128 MB (in 1 ms): too small to say anything about the disk.
        new() { Name = "unknown-small", Profile = "2019", IfiEnabled = true, Databases = [Sales],
            Logins = [new ScenarioLogin { Name = DashboardHost.Login, Password = DashboardHost.Password, Permissions = ["ALTER TRACE", "VIEW ANY DEFINITION"] }],
            GrowthEvents = [Growth(0, 1_000, 16_384), Growth(1, 1_000, 16_384)] },
        // Policy forbids IFI and it is off: 256 MB zeroed in 1 s, twice.
        new() { Name = "pci-off", Profile = "2019", IfiEnabled = false, Databases = [Sales], Inventory = new ScenarioInventory { Tags = ["pci"] },
            GrowthEvents = [Growth(0, 1_000_000, 32_768), Growth(1, 1_000_000, 32_768)] },
        // Registered today, IFI off; its default trace has rolled over everything older than yesterday.
        new() { Name = "new-off", Profile = "2019", IfiEnabled = false, Databases = [Sales],
            GrowthEvents = [Growth(0, 120_000_000, 32_768), Growth(1, 120_000_000, 32_768)] },
    ];

    // Item 19: a brand-new registration must not claim "4 min lost, 90 days" from a trace that reaches back a day.
    [Fact]
    public async Task Time_lost_says_how_far_back_the_evidence_reaches_on_the_page_the_overview_and_the_api()
    {
        await using var host = new DashboardHost(Fleet());
        await host.RegisterFleetAsync();
        await host.PollAllAsync();

        var fleet = await host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
        var fresh = fleet.Instances.Single(i => i.Registration.Name == "new-off");
        var client = host.AdministratorClient();
        var detail = new HtmlParser().ParseDocument(await client.GetStringAsync($"/instances/{fresh.Registration.Id}"));
        var overview = new HtmlParser().ParseDocument(await client.GetStringAsync("/"));
        using var api = System.Text.Json.JsonDocument.Parse(await client.GetStringAsync($"/api/v1/compliance/instances/{fresh.Registration.Id}"));
        using var csvRequest = new HttpRequestMessage(HttpMethod.Get, "/api/v1/compliance/export");
        csvRequest.Headers.Accept.ParseAdd("text/csv");
        var csv = await (await client.SendAsync(csvRequest)).Content.ReadAsStringAsync();
        using var timeLost = System.Text.Json.JsonDocument.Parse(await client.GetStringAsync("/api/v1/compliance/time-lost?groupBy=instance"));

        Assert.Equal(TimeSpan.FromMinutes(4), fresh.TimeLost.Last90Days);
        // The trace holds datetime (1/300 s): the oldest event's time comes back within a few milliseconds.
        Assert.Equal(Yesterday, fresh.TimeLost.EvidenceSince!.Value, TimeSpan.FromMilliseconds(5));
        Assert.Contains("evidence covers", detail.QuerySelector("[data-evidence-note='90']")!.TextContent, StringComparison.Ordinal);
        Assert.Contains("evidence covers", detail.QuerySelector("[data-evidence-note='7']")!.TextContent, StringComparison.Ordinal);
        Assert.NotNull(detail.QuerySelector("[data-evidence-since]"));
        Assert.Contains("evidence covers", overview.QuerySelector("[data-fix-first] li[data-instance='new-off'] [data-fix-reason]")!.TextContent, StringComparison.Ordinal);
        Assert.Contains("less than 90 days of growth evidence", overview.QuerySelector("[data-time-lost='90 days'] [data-evidence-note]")!.TextContent, StringComparison.Ordinal);
        var apiSince = api.RootElement.GetProperty("timeLost").GetProperty("evidenceSince").GetDateTimeOffset();
        Assert.Equal(fresh.TimeLost.EvidenceSince.Value, apiSince);
        Assert.Contains("evidenceSince", csv.Split('\n')[0], StringComparison.Ordinal);
        var group = timeLost.RootElement.GetProperty("groups").EnumerateArray().Single(g => g.GetProperty("key").GetString() == "new-off");
        Assert.Equal(apiSince, group.GetProperty("evidenceSince").GetDateTimeOffset());
    }

    [Fact]
    public async Task Unknown_ifi_is_not_zero_lost_and_fast_growths_are_shown_as_evidence_only()
    {
        await using var host = new DashboardHost(Fleet());
        await host.RegisterFleetAsync();
        await host.PollAllAsync();

        var fleet = await host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
        var unknown = fleet.Instances.Single(i => i.Registration.Name == "unknown-fast");
        var document = new HtmlParser().ParseDocument(await host.CreateClient().GetStringAsync("/instances"));
        var detail = new HtmlParser().ParseDocument(await host.CreateClient().GetStringAsync($"/instances/{unknown.Registration.Id}"));

        Assert.Equal(IfiDashboard.Shared.Snapshots.IfiState.Unknown, unknown.Facts.Ifi.State);
        Assert.Equal(TimeSpan.FromMilliseconds(4), unknown.TimeLost.IfiUnknownLast30Days);
        Assert.Equal("unknown", unknown.TimeLost.Show30Days(d => d.ToString()));
        Assert.Equal(GrowthTimingSuggestion.SuggestsOn, unknown.TimeLost.Evidence.Suggestion);
        Assert.Equal(GrowthTimingSuggestion.None, fleet.Instances.Single(i => i.Registration.Name == "unknown-small").TimeLost.Evidence.Suggestion);
        Assert.Equal("unknown", FleetGrid.Cell(document, "unknown-fast", "time-lost")!.TextContent.Trim());
        Assert.Equal("unknown", detail.QuerySelector("[data-time-lost='30']")!.TextContent.Trim());
        Assert.Contains("growths suggest IFI is on", detail.QuerySelector("[data-growth-evidence]")!.TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Zeroing_where_policy_forbids_ifi_is_its_cost_not_time_lost()
    {
        await using var host = new DashboardHost(Fleet());
        await host.RegisterFleetAsync();
        await host.Services.GetRequiredService<PolicyStore>().SaveRulesAsync(
            [new PolicyRule { Name = "pci", Desired = DesiredState.Forbidden, Tags = ["pci"] }], "test", CancellationToken.None);
        await host.PollAllAsync();

        var fleet = await host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
        var pci = fleet.Instances.Single(i => i.Registration.Name == "pci-off");

        Assert.Equal(TimeSpan.Zero, pci.TimeLost.Last30Days);
        Assert.Equal(TimeSpan.FromSeconds(2), pci.TimeLost.PolicyCostLast30Days);
        Assert.Equal(TimeSpan.FromMinutes(4), fleet.Last30Days.Fleet.TimeLost); // new-off's alone
        Assert.Equal(TimeSpan.FromSeconds(2), fleet.Last30Days.Fleet.PolicyCost);
        // Still a zeroing-rate sample: the volume's speed does not depend on why it zeroed.
        Assert.Equal(2, pci.Rates.Instance.SampleCount);
    }

    // Issue 29: IFI off and the default trace disabled showed "0 s lost" on the page, the grid, the CSV and the API
    // (timeLost30DaysSeconds: 0), though no growth could ever be seen there.
    [Fact]
    public async Task Ifi_off_without_a_default_trace_is_unknown_time_lost_on_every_surface_never_zero()
    {
        await using var host = new DashboardHost(
            new ScenarioInstance { Name = "off-no-trace", Profile = "2019", IfiEnabled = false, Databases = [Sales], DefaultTrace = new ScenarioDefaultTrace { Enabled = false } },
            new ScenarioInstance { Name = "on-no-trace", Profile = "2019", IfiEnabled = true, Databases = [Sales], DefaultTrace = new ScenarioDefaultTrace { Enabled = false } });
        await host.RegisterFleetAsync();
        await host.PollAllAsync();

        var fleet = await host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
        var off = fleet.Instances.Single(i => i.Registration.Name == "off-no-trace");
        var on = fleet.Instances.Single(i => i.Registration.Name == "on-no-trace");
        var client = host.AdministratorClient();
        var detail = new HtmlParser().ParseDocument(await client.GetStringAsync($"/instances/{off.Registration.Id}"));
        var grid = new HtmlParser().ParseDocument(await client.GetStringAsync("/instances"));
        var overview = new HtmlParser().ParseDocument(await client.GetStringAsync("/"));
        using var api = System.Text.Json.JsonDocument.Parse(await client.GetStringAsync($"/api/v1/compliance/instances/{off.Registration.Id}"));
        using var csvRequest = new HttpRequestMessage(HttpMethod.Get, "/api/v1/compliance/export");
        csvRequest.Headers.Accept.ParseAdd("text/csv");
        var csv = CsvReader.Parse(await (await client.SendAsync(csvRequest)).Content.ReadAsStringAsync());
        var gridCsv = CsvReader.Parse(await client.GetStringAsync("/instances/export.csv"));

        Assert.True(off.TimeLost.WithoutEvidence);
        Assert.False(on.TimeLost.WithoutEvidence); // IFI on: nothing could be lost, 0 s is exact
        Assert.Equal("unknown", detail.QuerySelector("[data-time-lost='30']")!.TextContent.Trim());
        Assert.Equal("unknown", FleetGrid.Cell(grid, "off-no-trace", "time-lost")!.TextContent.Trim());
        Assert.NotEqual("unknown", FleetGrid.Cell(grid, "on-no-trace", "time-lost")!.TextContent.Trim());
        Assert.Equal("unknown", overview.QuerySelector("[data-time-lost='30 days'] .tile-value")!.TextContent.Trim());
        var timeLost = api.RootElement.GetProperty("timeLost");
        Assert.Equal(System.Text.Json.JsonValueKind.Null, timeLost.GetProperty("last30DaysSeconds").ValueKind);
        Assert.Equal("Unknown", timeLost.GetProperty("last30DaysCertainty").GetString());
        var row = csv.Single(r => r.Contains("off-no-trace"));
        Assert.Equal("", row[csv[0].IndexOf("timeLost30DaysSeconds")]);
        Assert.Equal("Unknown", row[csv[0].IndexOf("timeLost30DaysCertainty")]);
        Assert.Equal("", gridCsv.Single(r => r.Contains("off-no-trace"))[gridCsv[0].IndexOf("Time lost 30 days (s)")]);
    }
}
