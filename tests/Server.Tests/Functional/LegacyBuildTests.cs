using IfiDashboard.Client.Pages.Detail;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Timeline;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;
using IfiDashboard.Store.Inventory;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// Builds whose sys.dm_server_services lacks the IFI column (2014 SP2, 2016 RTM) still have the DMV's rows, and the
/// engine writes the IFI state to the error log at start-up: they get a service account, a timeline and staleness
/// like any other instance, and advice that fits the build. Through the real collector over TCP.
/// </summary>
public sealed class LegacyBuildTests
{
    [Fact]
    public async Task A_2014_sp2_instance_keeps_its_account_good_polls_and_a_timeline_of_its_startup_line()
    {
        await using var host = new DashboardHost(
            new ScenarioInstance { Name = "sp2-on", Profile = "2014-SP2", IfiEnabled = true, ServiceAccount = @"CORP\svc-sql14" },
            new ScenarioInstance { Name = "sp3-2012", Profile = "2012-SP3", IfiEnabled = true });
        await host.RegisterFleetAsync();
        await host.PollAllAsync();
        // The right is taken away and the service restarted: the next start-up line says disabled.
        host.Fleet["sp2-on"].Scenario.IfiEnabled = false;
        var registration = (await host.Services.GetRequiredService<IfiDashboard.Store.Inventory.InstanceInventory>()
            .ListActiveAsync(CancellationToken.None)).Single(i => i.Name == "sp2-on");
        var second = await host.Services.GetRequiredService<IfiDashboard.Collector.Probes.InstanceProber>().PollAsync(registration, CancellationToken.None);
        await host.Services.GetRequiredService<ISnapshotSink>().WriteAsync(second, CancellationToken.None);

        var fleet = await host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
        var sp2 = fleet.Instances.Single(i => i.Registration.Name == "sp2-on");
        var detail = await host.Services.GetRequiredService<IInstanceDetails>().GetAsync(sp2.Registration.Id, GrowthWindow.Quarter, CancellationToken.None);
        var old = fleet.Instances.Single(i => i.Registration.Name == "sp3-2012");

        Assert.Equal(IfiState.Disabled, sp2.Facts.Ifi.State);
        Assert.Equal(ComplianceStatus.NonCompliant, sp2.Compliance.Status);
        Assert.Equal(@"CORP\svc-sql14", sp2.Facts.EngineServiceAccount);
        // Staleness is measured from the last good poll: without one a dead collector would leave it Compliant for ever.
        Assert.NotNull(sp2.Facts.LastGoodPollAt);
        var lost = Assert.Single(detail!.Timeline, change => change.Kind == TimelineChangeKind.IfiFlag);
        Assert.Equal(("Y", "N"), (lost.Before, lost.After));
        Assert.DoesNotContain("instant_file_initialization_enabled", sp2.Remediation.Steps[^1], StringComparison.Ordinal);
        Assert.Contains("sp_readerrorlog", sp2.Remediation.Steps[^1], StringComparison.Ordinal);
        // Before 2012 SP4 neither the column nor the line exists: unknown, but the service account is still known.
        Assert.Equal(IfiState.Unknown, old.Facts.Ifi.State);
        Assert.False(string.IsNullOrEmpty(old.Facts.EngineServiceAccount));
        Assert.Null(old.Facts.LastGoodPollAt);
    }
}
