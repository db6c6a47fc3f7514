using AngleSharp.Html.Parser;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Server.Store.Policy;
using IfiDashboard.Shared.Compliance.Policy;
using IfiDashboard.Shared.Compliance.Zeroing;
using IfiDashboard.Shared.Dashboard;
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
        // Policy forbids IFI and it is off: 64 MB zeroed in 1 s, twice.
        new() { Name = "pci-off", Profile = "2019", IfiEnabled = false, Databases = [Sales], Inventory = new ScenarioInventory { Tags = ["pci"] },
            GrowthEvents = [Growth(0, 1_000_000, 8192), Growth(1, 1_000_000, 8192)] },
    ];

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
        Assert.Equal("unknown", document.QuerySelector("tr[data-instance='unknown-fast']")!.Children[8].TextContent.Trim());
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
        Assert.Equal(TimeSpan.Zero, fleet.Last30Days.Fleet.TimeLost);
        Assert.Equal(TimeSpan.FromSeconds(2), fleet.Last30Days.Fleet.PolicyCost);
        // Still a zeroing-rate sample: the volume's speed does not depend on why it zeroed.
        Assert.Equal(2, pci.Rates.Instance.SampleCount);
    }
}
