using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.E2E.Tests;

/// <summary>
/// Issue 29 item 1 as a DBA sees it in Chromium: the demo's two availability groups over three replicas, one secondary
/// without IFI, on the overview, in the grid and on a replica's page.
/// </summary>
[Collection(DemoCollection.Name)]
public sealed class AvailabilityGroupsInBrowserTests(DemoFixture demo)
{
    Browser Browser => demo.Browser;
    string Url(string path) => demo.Server.BaseUrl + path;

    [Fact]
    public async Task The_overview_names_each_group_and_the_replica_page_shows_every_replicas_ifi()
    {
        var fleet = await demo.Server.Services.GetRequiredService<IfiDashboard.Compliance.Assessment.IFleetAssessments>().GetAsync(CancellationToken.None);
        var lacking = fleet.Instances.Single(i => i.Registration.Name == "sql19-win-ag3").Registration;

        Browser.Open(Url(""));
        Assert.Equal("AG payments-ag: 1 of 3 replicas without IFI; the primary has it.",
            Browser.Text("[data-overview=availability-groups] li[data-ag=payments-ag]").Trim());
        Assert.Equal("AG ledger-ag: 1 of 3 replicas without IFI; the primary has it.",
            Browser.Text("[data-overview=availability-groups] li[data-ag=ledger-ag]").Trim());

        Browser.Click("[data-overview=availability-groups] li[data-ag=payments-ag] a");
        Browser.WaitUntil(d => d.Url.Contains("q=payments-ag", StringComparison.Ordinal));
        Browser.WaitFor("table[data-grid=instances] [data-ag-roles]");
        Assert.Equal(["sql19-win-ag1", "sql19-win-ag2", "sql19-win-ag3"],
            Browser.Attributes("table[data-grid=instances] a[data-instance]", "data-instance").Order());

        Browser.Open(Url($"instances/{lacking.Id}"));
        Browser.WaitFor("[data-section=availability-groups]");
        Assert.Contains("This replica is secondary.", Browser.Text("[data-ag-summary=payments-ag]"), StringComparison.Ordinal);
        Assert.Equal(["Enabled", "Enabled", "Disabled"],
            Browser.Attributes("[data-section=availability-groups] tr[data-replica] [data-ifi-state]", "data-ifi-state").Take(3));
        Assert.Empty(Browser.AccessibilityViolations());
        Browser.Screenshot("availability-groups");
    }
}
