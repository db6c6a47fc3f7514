using IfiDashboard.Client.Pages.Detail;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Summary;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Store.Policy;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>The compliance engine's verdicts and numbers for a polled fleet, read back through the store.</summary>
[Trait(Store.TestDatabase.PostgresPassTrait, Store.TestDatabase.PostgresPassValue)]
public sealed class ComplianceAssessmentTests
{
    static readonly DateTimeOffset Yesterday = DateTimeOffset.UtcNow.AddDays(-1);

    static ScenarioInstance[] Fleet() =>
    [
        new() { Name = "ok-required", Profile = "2019", IfiEnabled = true },
        new() { Name = "off-required", Profile = "2019", IfiEnabled = false,
            Databases = [new ScenarioDatabase { Name = "Sales", Id = 5, Files =
            [
                new ScenarioDatabaseFile { Name = "Sales", PhysicalName = @"D:\Data\Sales.mdf", SizePages = 1_310_720, Growth = 8192 },
                new ScenarioDatabaseFile { Name = "Sales_log", PhysicalName = @"L:\Log\Sales.ldf", Type = DatabaseFileType.Log, SizePages = 65_536, Growth = 8192 },
            ] }],
            // 256 MB data growths zeroed at 64 MB/s (4 s each) and one log growth (always zeroed, not IFI's to save).
            GrowthEvents =
            [
                new ScenarioGrowthEvent { EventClass = 92, Database = "Sales", FileName = "Sales", StartTime = Yesterday, DurationMicroseconds = 4_000_000, GrowthPages = 32_768 },
                new ScenarioGrowthEvent { EventClass = 92, Database = "Sales", FileName = "Sales", StartTime = Yesterday.AddHours(1), DurationMicroseconds = 4_000_000, GrowthPages = 32_768 },
                new ScenarioGrowthEvent { EventClass = 93, Database = "Sales", FileName = "Sales_log", StartTime = Yesterday.AddHours(2), DurationMicroseconds = 500_000, GrowthPages = 8192 },
            ] },
        new() { Name = "pci-ifi-on", Profile = "2022", IfiEnabled = true, Inventory = new ScenarioInventory { Tags = ["pci"] } },
        new() { Name = "waived", Profile = "2019", IfiEnabled = false },
        new() { Name = "legacy", Profile = "2012-SP3", IfiEnabled = true },
    ];

    [Fact]
    public async Task Policy_waivers_and_growth_history_become_statuses_and_time_lost()
    {
        await using var host = new DashboardHost(Fleet());
        await host.RegisterFleetAsync();
        var policies = host.Services.GetRequiredService<PolicyStore>();
        await policies.SaveRulesAsync(
        [
            new PolicyRule { Name = "pci", Desired = DesiredState.Forbidden, Tags = ["pci"] },
            new PolicyRule { Name = "all", Desired = DesiredState.Required },
        ], "test", CancellationToken.None);
        await policies.GrantWaiverAsync(new Waiver
        {
            InstanceId = host.IdOf("waived"), Reason = "vendor window", Author = "dba",
            GrantedAt = DateTimeOffset.UtcNow.AddDays(-1), ExpiresAt = DateTimeOffset.UtcNow.AddDays(7),
        }, CancellationToken.None);
        await host.PollAllAsync();

        var fleet = await host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);

        ComplianceStatus StatusOf(string name) => fleet.Instances.Single(i => i.Registration.Name == name).Compliance.Status;
        Assert.Equal(ComplianceStatus.Compliant, StatusOf("ok-required"));
        Assert.Equal(ComplianceStatus.NonCompliant, StatusOf("off-required"));
        Assert.Equal(ComplianceStatus.NonCompliant, StatusOf("pci-ifi-on"));
        Assert.Equal(ComplianceStatus.Waived, StatusOf("waived"));
        Assert.Equal(ComplianceStatus.Unknown, StatusOf("legacy"));
        var off = fleet.Instances.Single(i => i.Registration.Name == "off-required");
        Assert.Equal(TimeSpan.FromSeconds(8), off.TimeLost.Last7Days);
        Assert.Equal(TimeSpan.FromSeconds(0.5), off.TimeLost.LogZeroingLast30Days);
        Assert.Equal(TimeSpan.FromSeconds(8), fleet.Last30Days.Fleet.TimeLost);
        // Its own rate: 256 MB in 4 s, from 2 samples.
        Assert.Equal(2, off.Rates.Instance.SampleCount);
        Assert.Equal(64.0 * 1024 * 1024, off.Rates.Instance.BytesPerSecond, 3);
        Assert.Equal(5, fleet.Polled);
        Assert.Single(fleet.Daily);
    }

    [Fact]
    public async Task The_trend_ends_on_the_figure_of_the_current_assessment_not_the_worst_of_the_day()
    {
        await using var host = new DashboardHost(Fleet());
        await host.RegisterFleetAsync();
        await host.PollAllAsync();
        var assessments = host.Services.GetRequiredService<FleetAssessments>();
        await assessments.RecomputeAsync(CancellationToken.None); // every instance requires IFI: those without it fail
        await host.Services.GetRequiredService<PolicyStore>().SaveRulesAsync(
            [new PolicyRule { Name = "none", Desired = DesiredState.Forbidden }], "test", CancellationToken.None);

        var fleet = await assessments.RecomputeAsync(CancellationToken.None); // now those with IFI fail instead

        // Today's stored day has every polled instance non-compliant at some point; the tiles count the statuses now.
        var tiles = FleetSummaries.Count(fleet.Instances.Select(i => new AssessedInstance(i.Facts, i.Compliance)));
        Assert.True(tiles.Compliant > 0, $"{tiles}");
        var last = Assert.Single(fleet.Daily);
        Assert.Equal(tiles.CompliancePercent, last.Counts.CompliancePercent);
        Assert.Equal(tiles.Compliant, last.Counts.Compliant);
    }

    [Fact]
    public async Task Instance_detail_holds_files_with_effective_ifi_events_and_the_last_probes()
    {
        await using var host = new DashboardHost(Fleet());
        await host.RegisterFleetAsync();
        await host.PollAllAsync();

        var detail = await host.Services.GetRequiredService<IInstanceDetails>().GetAsync(host.IdOf("off-required"), GrowthWindow.Quarter, CancellationToken.None);

        Assert.NotNull(detail);
        Assert.Contains(detail.Files, f => f.File.LogicalName == "Sales");
        Assert.Equal(3, detail.Growth.Events.Count);
        Assert.True(detail.Growth.Events[0].Event.StartTime > detail.Growth.Events[^1].Event.StartTime);
        Assert.Contains(detail.LastProbes, p => p.Probe == "growth-events");
        Assert.Contains(detail.Services, s => s.IsEngine && s.InstantFileInitializationEnabled == "N");
        Assert.Equal("Enabled", detail.DefaultTrace);
    }
}
