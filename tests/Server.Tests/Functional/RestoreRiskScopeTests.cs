using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// Restore risk counts only what a restore would zero, through the real collector over TCP: a database snapshot's
/// sparse files are never zeroed nor restored, and tempdb is recreated at start, never restored.
/// </summary>
public sealed class RestoreRiskScopeTests
{
    [Fact]
    public async Task Database_snapshots_and_tempdb_carry_no_restore_risk()
    {
        await using var host = new DashboardHost(new ScenarioInstance
        {
            Name = "off", Profile = "2019", IfiEnabled = false,
            Databases =
            [
                new ScenarioDatabase { Name = "Sales", Files =
                [
                    new ScenarioDatabaseFile { Name = "Sales", PhysicalName = @"D:\Data\Sales.mdf", SizePages = 1_310_720 },
                    new ScenarioDatabaseFile { Name = "Sales_log", PhysicalName = @"L:\Log\Sales.ldf", Type = DatabaseFileType.Log, SizePages = 65_536 },
                ] },
                new ScenarioDatabase { Name = "Sales_snap_0600", SnapshotOf = "Sales", Files =
                [
                    new ScenarioDatabaseFile { Name = "Sales", PhysicalName = @"D:\Data\Sales_0600.ss", SizePages = 1_310_720 },
                ] },
            ],
        });
        await host.RegisterFleetAsync();
        await host.PollAllAsync();

        var fleet = await host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
        var restore = fleet.Instances.Single().Restore;

        Assert.Equal(["Sales", "master", "model", "msdb"], restore.Databases.Select(d => d.DatabaseName).Order(StringComparer.Ordinal));
        // tempdb's growth stalls still matter: it grows under load like any database.
        Assert.Contains(restore.GrowthStalls, s => s.DatabaseName == "tempdb");
        Assert.DoesNotContain(restore.GrowthStalls, s => s.DatabaseName == "Sales_snap_0600");
    }
}
