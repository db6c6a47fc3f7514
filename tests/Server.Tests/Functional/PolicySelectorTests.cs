using AngleSharp.Html.Parser;
using System.Security.Claims;
using IfiDashboard.Client.Pages.Policy;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Shared.Security;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// Issue 29 item 3: a rule that selects by cluster membership, over a simulated availability group polled by the real
/// collector, where one replica's login may read the services DMV (IFI known) but not the HADR DMVs: that replica's
/// status is Unknown with the rule named, never a guess, and its page says so.
/// </summary>
public sealed class PolicySelectorTests
{
    static readonly ClaimsPrincipal Admin = new(new ClaimsIdentity(
        [new Claim(ClaimTypes.Name, "admin"), new Claim(ClaimTypes.Role, DashboardRoles.Administrator)], "test"));

    [Fact]
    public async Task A_replica_whose_groups_cannot_be_read_is_undecided_under_a_rule_for_secondaries_and_its_page_names_the_rule()
    {
        // 2022: the services DMV needs VIEW SERVER SECURITY STATE, the HADR DMVs VIEW SERVER PERFORMANCE STATE.
        await using var host = new DashboardHost(
            [new ScenarioAvailabilityGroup { Name = "payments", Replicas = ["pay-a", "pay-b", "pay-c"] }],
            new ScenarioInstance { Name = "pay-a", Profile = "2022", IfiEnabled = true },
            new ScenarioInstance { Name = "pay-b", Profile = "2022", IfiEnabled = true },
            new ScenarioInstance
            {
                Name = "pay-c", Profile = "2022", IfiEnabled = true,
                Logins = [new ScenarioLogin { Name = DashboardHost.Login, Password = DashboardHost.Password,
                    Permissions = ["VIEW SERVER SECURITY STATE", "VIEW ANY DEFINITION", "ALTER TRACE"] }],
            });
        await host.RegisterFleetAsync();
        await host.PollAllAsync();
        await host.Services.GetRequiredService<IPolicyEditor>().SaveRulesAsync(
        [
            new PolicyRule { Name = "Secondaries zero", Desired = DesiredState.Forbidden, Clusters = [ClusterMembership.AvailabilityGroupSecondary] },
        ], Admin, CancellationToken.None);

        var fleet = await host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);

        var primary = fleet.Find(host.IdOf("pay-a"))!.Compliance;
        var secondary = fleet.Find(host.IdOf("pay-b"))!.Compliance;
        var unread = fleet.Find(host.IdOf("pay-c"))!.Compliance;
        Assert.Equal((ComplianceStatus.Compliant, PolicySource.Default), (primary.Status, primary.Policy.Source));
        Assert.Equal((ComplianceStatus.NonCompliant, "Secondaries zero"), (secondary.Status, secondary.Policy.RuleName));
        Assert.Equal((ComplianceStatus.Unknown, PolicySource.Undecided), (unread.Status, unread.Policy.Source));
        Assert.Equal("Policy undecided: policy 'Secondaries zero' selects by cluster, which is unknown " +
                     "(availability groups not read: permission missing)", unread.Explanation);

        var page = new HtmlParser().ParseDocument(await host.CreateClient().GetStringAsync($"/instances/{host.IdOf("pay-c")}"));
        Assert.Contains("Policy undecided: policy 'Secondaries zero' selects by cluster",
            page.QuerySelector("[data-explanation]")!.TextContent, StringComparison.Ordinal);
    }
}
