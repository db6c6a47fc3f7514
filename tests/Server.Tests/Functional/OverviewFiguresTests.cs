using AngleSharp.Html.Dom;
using AngleSharp.Html.Parser;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Summary;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Server.Demo;
using IfiDashboard.Store.Policy;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// The overview of the demo fleet, polled over TCP and assessed by the server: the breakdowns and the list of what to
/// fix first come from the assessment the tiles count.
/// </summary>
public sealed class OverviewFiguresTests(OverviewFiguresTests.PolledDemoFleet demo) : IClassFixture<OverviewFiguresTests.PolledDemoFleet>
{
    static readonly string[] Statuses = ["Compliant", "NonCompliant", "Waived", "Unknown", "NotApplicable", "stale"];

    /// <summary>The demo fleet and policy registered, polled once and assessed, with the overview read once: shared by the tests.</summary>
    public sealed class PolledDemoFleet : IAsyncLifetime
    {
        public DashboardHost Host { get; private set; } = null!;
        public IHtmlDocument Overview { get; private set; } = null!;
        public FleetAssessment Fleet { get; private set; } = null!;

        public async Task InitializeAsync()
        {
            var scenario = DemoMode.LoadScenario(DateTimeOffset.UtcNow);
            // The demo's availability groups too: the fleet as --demo runs it.
            Host = new DashboardHost(scenario.AvailabilityGroups, [.. scenario.Instances]);
            await Host.RegisterFleetAsync();
            // The demo's policy: PCI hosts forbid IFI, one waiver in force and one expired.
            await DemoPolicy.SeedAsync(Host.Services.GetRequiredService<PolicyStore>(),
                scenario.Instances.ToDictionary(i => i.Name, i => Host.IdOf(i.Name)), scenario, DateTimeOffset.UtcNow, CancellationToken.None);
            await Host.PollAllAsync();
            await Host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
            Fleet = await Host.Services.GetRequiredService<IFleetAssessments>().GetAsync(CancellationToken.None);
            Overview = await GetAsync("/");
        }

        public async Task DisposeAsync() => await Host.DisposeAsync();

        public async Task<IHtmlDocument> GetAsync(string path) => new HtmlParser().ParseDocument(await Host.CreateClient().GetStringAsync(path));
    }

    IHtmlDocument Overview => demo.Overview;
    FleetAssessment Fleet => demo.Fleet;

    Task<IHtmlDocument> GetAsync(string path) => demo.GetAsync(path);

    int Tile(string status) => Number(Overview.QuerySelector($"[data-count='{status}'] .tile-value")!.TextContent);

    static int Number(string text) => int.Parse(text.Trim(), System.Globalization.NumberStyles.AllowThousands, System.Globalization.CultureInfo.InvariantCulture);

    [Fact]
    public void Each_breakdown_sums_to_the_tiles()
    {
        var breakdowns = Overview.QuerySelectorAll("[data-breakdown]").Select(b => b.GetAttribute("data-breakdown")!).ToList();
        Assert.Equal(["desired", "environment", "owner", "version"], breakdowns);
        Assert.Equal(Fleet.Instances.Count, Statuses.Take(5).Sum(Tile));
        Assert.True(Tile("NonCompliant") > 0 && Tile("Unknown") > 0, "the demo fleet has instances to fix and unknown ones");

        foreach (var breakdown in breakdowns)
            foreach (var status in Statuses)
                Assert.True(Tile(status) == Overview.QuerySelectorAll($"[data-breakdown={breakdown}] [data-status-count={status}]").Sum(c => Number(c.TextContent)),
                    $"{breakdown}: {status} does not sum to its tile ({Tile(status)})");
    }

    [Fact]
    public async Task Each_group_opens_the_grid_on_exactly_its_instances()
    {
        var rows = Overview.QuerySelectorAll("[data-breakdown] tbody tr").Where(r => r.QuerySelector("a") is not null).ToList();
        Assert.Contains(rows, r => r.QuerySelector("a")!.GetAttribute("href")!.Contains("env=", StringComparison.Ordinal));
        Assert.Contains(rows, r => r.QuerySelector("a")!.GetAttribute("href")!.Contains("owner=", StringComparison.Ordinal));
        Assert.Contains(rows, r => r.QuerySelector("a")!.GetAttribute("href")!.Contains("version=", StringComparison.Ordinal));

        foreach (var row in rows)
        {
            var inGroup = row.QuerySelectorAll("[data-status-count]").Where(c => c.GetAttribute("data-status-count") != "stale").Sum(c => Number(c.TextContent));
            var grid = await GetAsync("/" + row.QuerySelector("a")!.GetAttribute("href"));
            Assert.True(inGroup == FleetGrid.Names(grid).Count,
                $"{row.QuerySelector("a")!.GetAttribute("href")}: {inGroup} in the group, {FleetGrid.Names(grid).Count} in the grid");
        }
    }

    [Fact]
    public void What_to_fix_first_lists_the_non_compliant_production_first_with_their_figures()
    {
        var listed = Overview.QuerySelectorAll("[data-fix-first] li").ToList();
        var nonCompliant = Fleet.Instances.Where(i => i.Compliance.Status == ComplianceStatus.NonCompliant).ToList();

        Assert.Contains($"What to fix first ({nonCompliant.Count})", Overview.QuerySelector("#h-fix-first")!.TextContent, StringComparison.Ordinal);
        Assert.Equal(Math.Min(10, nonCompliant.Count), listed.Count);
        var named = listed.Select(li => nonCompliant.Single(i => i.Registration.Name == li.GetAttribute("data-instance"))).ToList();
        var tiers = named.Select(i => FixFirst.TierOf(i.Registration.Environment)).ToList();
        Assert.Equal(tiers.Order(), tiers);
        Assert.Equal(EnvironmentTier.Production, tiers[0]);
        // The demo's history gives the instances without IFI real growths and databases: their reasons carry figures.
        Assert.Contains(listed, li => li.QuerySelector("[data-fix-reason]")!.TextContent.Contains("lost to zeroing in 30 days", StringComparison.Ordinal));
        Assert.Contains(listed, li => li.QuerySelector("[data-fix-reason]")!.TextContent.Contains("would wait ~", StringComparison.Ordinal));
        // Where IFI is on (policy forbids it), no restore waits on zeroing IFI would save, TDE databases' included.
        Assert.Contains(named, i => i.Compliance.Observed == IfiDashboard.Shared.Snapshots.IfiState.Enabled && i.Restore.Databases.Any(d => d.TdeEncrypted && d.ExtraSeconds > 0));
        Assert.All(listed.Zip(named).Where(x => x.Second.Compliance.Observed == IfiDashboard.Shared.Snapshots.IfiState.Enabled), x =>
            Assert.DoesNotContain("would wait", x.First.QuerySelector("[data-fix-reason]")!.TextContent, StringComparison.Ordinal));
        Assert.All(listed.Zip(named), x =>
            Assert.Equal($"instances/{x.Second.Registration.Id}#h-remediation", x.First.QuerySelector("[data-fix-remediation]")!.GetAttribute("href")));
    }

    /// <summary>
    /// Issue 29 item 5: what the demo adds must show as what it is. Trace flag 1805 turns IFI off for data files though
    /// the service holds the right (the DMV says 'Y'), so the instance is not compliant and the flag is named.
    /// </summary>
    [Fact]
    public async Task The_demo_shows_trace_flag_1805_as_ifi_off_for_data_files_with_the_flag_named()
    {
        var flagged = Fleet.Instances.Single(i => i.Registration.Name == "sql19-win-tf1805");
        Assert.Equal((IfiDashboard.Shared.Snapshots.IfiState.Disabled, ComplianceStatus.NonCompliant),
            (flagged.Compliance.Observed, flagged.Compliance.Status));
        Assert.StartsWith("IFI is off for data files (trace flag 1805 or 1806 overrides the right the service account holds)",
            flagged.Compliance.Explanation, StringComparison.Ordinal);

        var page = await GetAsync($"/instances/{flagged.Registration.Id}");
        Assert.NotEmpty(page.QuerySelectorAll("[data-ifi-state]"));
        Assert.All(page.QuerySelectorAll("[data-ifi-state]"), badge => Assert.Equal("Disabled", badge.GetAttribute("data-ifi-state")));
        Assert.Equal(flagged.Compliance.Explanation, page.QuerySelector("[data-explanation]")!.TextContent.Trim());
        // Which flag: what the trace-flags probe found is on the page, though every probe succeeded.
        Assert.StartsWith("trace-flags: Trace flag 1805 is on globally",
            page.QuerySelector("[data-probe-findings] li[data-probe=trace-flags]")?.TextContent.Trim(), StringComparison.Ordinal);
        var grid = await GetAsync("/instances?q=sql19-win-tf1805");
        Assert.Equal("NonCompliant", grid.QuerySelector("table[data-grid=instances] a[data-instance='sql19-win-tf1805']")!.GetAttribute("data-status"));
    }

    [Fact]
    public async Task The_demo_shows_its_named_cluster_instance_its_availability_groups_and_the_forbidden_linux_host()
    {
        var claims = Fleet.Instances.Single(i => i.Registration.Name == "sql19-win-fci");
        Assert.Equal(("CLAIMS", true, ComplianceStatus.Compliant), (claims.Facts.SqlInstanceName, claims.Facts.IsClustered, claims.Compliance.Status));
        Assert.Equal(["SQLCLU-N1", "SQLCLU-N2", "SQLCLU-N3"], claims.Facts.ClusterNodes);

        Assert.Equal(["AG ledger-ag: 1 of 3 replicas without IFI; the primary has it.", "AG payments-ag: 1 of 3 replicas without IFI; the primary has it."],
            Overview.QuerySelectorAll("[data-overview=availability-groups] li[data-ag]").Select(li => li.TextContent.Trim()).Order());

        var linux = Fleet.Instances.Single(i => i.Registration.Name == "sql22-lin-pci");
        Assert.Equal((IfiDashboard.Compliance.Facts.HostPlatform.Linux, IfiDashboard.Compliance.Policy.DesiredState.Forbidden, ComplianceStatus.NonCompliant),
            (linux.Facts.Platform, linux.Compliance.Policy.Desired, linux.Compliance.Status));
        var page = await GetAsync($"/instances/{linux.Registration.Id}");
        Assert.Contains("PCI hosts forbid IFI", page.QuerySelector("main")!.TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Every_link_on_the_overview_answers_and_the_method_topics_it_links_to_are_served()
    {
        var client = demo.Host.CreateClient();
        var links = Overview.QuerySelectorAll("a[href]").Select(a => a.GetAttribute("href")!.Split('#')[0])
            .Where(href => href.Length > 0).Distinct().ToList();
        Assert.Contains("method/time-lost-to-zeroing", links);
        Assert.Contains("method/restore-risk", links);

        var answers = new List<string>();
        foreach (var href in links)
        {
            using var response = await client.GetAsync(href.StartsWith('/') ? href : "/" + href);
            answers.Add($"{href} {(int)response.StatusCode}");
        }
        Assert.Equal(links.Select(href => $"{href} 200"), answers);

        var topic = await GetAsync("/method/restore-risk");
        Assert.StartsWith("Restore risk", topic.QuerySelector("article.method-doc h1")!.TextContent, StringComparison.Ordinal);
        // The path the pages name the method by (docs/compliance.md) answers too; a topic that does not exist does not.
        Assert.Equal(System.Net.HttpStatusCode.OK, (await client.GetAsync("/docs/compliance.md")).StatusCode);
        Assert.Equal(System.Net.HttpStatusCode.NotFound, (await client.GetAsync("/method/no-such-topic")).StatusCode);
    }
}
