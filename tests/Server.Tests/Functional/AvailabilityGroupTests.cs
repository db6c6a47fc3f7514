using AngleSharp.Html.Parser;
using Dapper;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Store;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// Issue 29 item 1: a three-replica availability group in the simulator, polled by the real collector over TCP. The
/// instance page groups the replicas with each one's IFI, a failover mid-test lands on /changes and moves the
/// restart order of the remediation advice, and a failover cluster instance's owner move is a change too.
/// </summary>
public sealed class AvailabilityGroupTests
{
    static DashboardHost Payments() => new(
        [new ScenarioAvailabilityGroup { Name = "payments", Replicas = ["pay-a", "pay-b", "pay-c"], Listener = "payments-lsn" }],
        new ScenarioInstance { Name = "pay-a", Profile = "2019", IfiEnabled = true },
        new ScenarioInstance { Name = "pay-b", Profile = "2019", IfiEnabled = false },
        new ScenarioInstance { Name = "pay-c", Profile = "2019", IfiEnabled = false });

    static async Task PollAndAssessAsync(DashboardHost host)
    {
        await using (var connection = await host.Services.GetRequiredService<IDbConnectionFactory>().OpenAsync(CancellationToken.None))
            await connection.ExecuteAsync("UPDATE instances SET next_poll_at = NULL WHERE retired_at IS NULL;");
        await host.PollAllAsync();
        await host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
    }

    // The changes page streams: its rows may come in a later template of the same response (AuditTrailTests.Rendered).
    static async Task<AngleSharp.Html.Dom.IHtmlDocument> PageAsync(DashboardHost host, string path) =>
        new HtmlParser().ParseDocument(await host.CreateClient().GetStringAsync(path));

    [Fact]
    public async Task The_instance_page_groups_the_replicas_with_each_ones_ifi()
    {
        await using var host = Payments();
        await host.RegisterFleetAsync();
        await PollAndAssessAsync(host);

        var page = await PageAsync(host, $"/instances/{host.IdOf("pay-b")}");

        var summary = page.QuerySelector("[data-ag-summary='payments']")!.TextContent;
        Assert.Contains("AG payments: 2 of 3 replicas without IFI; the primary has it.", summary, StringComparison.Ordinal);
        Assert.Contains("This replica is secondary.", summary, StringComparison.Ordinal);
        var rows = page.QuerySelectorAll("[data-section='availability-groups'] tr[data-replica]").ToList();
        Assert.Equal(["PAY-A", "PAY-B", "PAY-C"], rows.Select(r => r.GetAttribute("data-replica")));
        Assert.Equal(["PRIMARY", "SECONDARY", "SECONDARY"], rows.Select(r => r.GetAttribute("data-role")));
        Assert.Equal(["Enabled", "Disabled", "Disabled"], rows.Select(r => r.QuerySelector("[data-ifi-state]")!.GetAttribute("data-ifi-state")));
        Assert.All(rows, r => Assert.NotNull(r.QuerySelector("a[href^='instances/']")));
    }

    [Fact]
    public async Task A_failover_is_on_the_changes_page_and_moves_the_restart_order()
    {
        await using var host = Payments();
        await host.RegisterFleetAsync();
        await PollAndAssessAsync(host);
        var before = string.Join(" ", (await PageAsync(host, $"/instances/{host.IdOf("pay-b")}"))
            .QuerySelectorAll("[data-remediation] ol li").Select(li => li.TextContent));
        Assert.Contains("secondary replica of availability group payments (primary: PAY-A): restart it before the primary", before, StringComparison.Ordinal);

        host.Fleet.Failover("payments", "pay-b");
        await PollAndAssessAsync(host);

        var changes = AuditTrailTests.Rendered(await PageAsync(host, "/changes?kind=failover"), "[data-change-row]");
        Assert.Equal(["pay-a", "pay-b"], changes.Select(r => r.GetAttribute("data-instance")).Order());
        Assert.All(changes, r => Assert.Equal("failover", r.GetAttribute("data-kind")));
        Assert.Contains(changes, r => r.TextContent.Contains("Availability group payments failed over: this replica went from SECONDARY to PRIMARY", StringComparison.Ordinal));
        var after = string.Join(" ", (await PageAsync(host, $"/instances/{host.IdOf("pay-b")}"))
            .QuerySelectorAll("[data-remediation] ol li").Select(li => li.TextContent));
        Assert.Contains("This is the primary replica of availability group payments: never restart it first.", after, StringComparison.Ordinal);
        Assert.Contains("secondaries (PAY-A, PAY-C)", after, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_failover_cluster_instance_moving_to_another_node_is_a_change()
    {
        await using var host = new DashboardHost(new ScenarioInstance
        {
            Name = "fci-sales", Profile = "2019", IfiEnabled = true, ClusterNodes = ["SQLNODE1", "SQLNODE2"],
        });
        await host.RegisterFleetAsync();
        await PollAndAssessAsync(host);

        host.Fleet.Update("fci-sales", i => i.ClusterNodes = ["SQLNODE2", "SQLNODE1"]);
        await PollAndAssessAsync(host);

        var change = Assert.Single(AuditTrailTests.Rendered(await PageAsync(host, "/changes?kind=failover"), "[data-change-row]"));
        Assert.Contains("Failover cluster instance moved from node SQLNODE1 to SQLNODE2", change.TextContent, StringComparison.Ordinal);
    }
}
