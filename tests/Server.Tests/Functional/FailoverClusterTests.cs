using AngleSharp.Html.Parser;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// Item 10: a failover cluster instance, polled by the real collector over TCP, is told to grant the right on every
/// possible owner node (from sys.dm_os_cluster_nodes) and to restart through the cluster, on its page.
/// </summary>
public sealed class FailoverClusterTests
{
    [Fact]
    public async Task The_instance_page_names_every_node_and_the_cluster_restart()
    {
        await using var host = new DashboardHost(new ScenarioInstance
        {
            Name = "fci-sales", Profile = "2019", IfiEnabled = false, InstanceName = "SALES",
            ServiceAccount = @"NT Service\MSSQL$SALES", ClusterNodes = ["SQLNODE2", "SQLNODE1"],
        });
        await host.RegisterFleetAsync();
        await host.PollAllAsync();

        var fleet = await host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
        var fci = fleet.Instances.Single();
        var page = new HtmlParser().ParseDocument(await host.CreateClient().GetStringAsync($"/instances/{fci.Registration.Id}"));
        var steps = page.QuerySelectorAll("[data-remediation] ol li").Select(li => li.TextContent).ToList();

        Assert.True(fci.Facts.IsClustered);
        Assert.Equal(["SQLNODE2", "SQLNODE1"], fci.Facts.ClusterNodes);
        Assert.Contains(steps, s => s.Contains("every possible owner node, SQLNODE2 (the current owner), SQLNODE1", StringComparison.Ordinal));
        Assert.Contains(steps, s => s.Contains("Failover Cluster Manager > Roles > SQL Server (SALES)", StringComparison.Ordinal));
        Assert.DoesNotContain(steps, s => s.Contains("Restart-Service", StringComparison.Ordinal));
    }
}
