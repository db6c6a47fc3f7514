using AngleSharp.Html.Parser;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Store.Policy;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// Item 20: SQL Server on Linux, polled by the real collector: the page says what IFI means there from a named source,
/// and a rule forbidding IFI on a Linux host is warned about, with Linux steps (mssql-conf), never Windows ones.
/// </summary>
public sealed class LinuxHostTests
{
    [Fact]
    public async Task A_forbidding_rule_on_a_Linux_host_gets_a_warning_and_linux_steps()
    {
        await using var host = new DashboardHost(new ScenarioInstance
        {
            Name = "lnx-pci", Profile = "2022", Platform = "Linux", IfiEnabled = true,
            Inventory = new ScenarioInventory { Tags = ["pci"] },
        });
        await host.RegisterFleetAsync();
        await host.Services.GetRequiredService<PolicyStore>().SaveRulesAsync(
            [new PolicyRule { Name = "pci", Desired = DesiredState.Forbidden, Tags = ["pci"] }], "test", CancellationToken.None);
        await host.PollAllAsync();

        var fleet = await host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
        var linux = fleet.Instances.Single();
        var page = new HtmlParser().ParseDocument(await host.CreateClient().GetStringAsync($"/instances/{linux.Registration.Id}"));
        var text = page.QuerySelector("main")!.TextContent;
        var steps = page.QuerySelectorAll("[data-remediation] ol li").Select(li => li.TextContent).ToList();

        Assert.Equal(ComplianceStatus.NonCompliant, linux.Compliance.Status);
        Assert.Contains("on Linux IFI cannot expose deleted disk contents", text, StringComparison.Ordinal);
        Assert.DoesNotContain("unconfirmed", text, StringComparison.OrdinalIgnoreCase);
        Assert.Contains(steps, s => s.Contains("mssql-conf traceflag 1806 on", StringComparison.Ordinal));
        Assert.DoesNotContain(steps, s => s.Contains("secpol.msc", StringComparison.Ordinal));
    }
}
