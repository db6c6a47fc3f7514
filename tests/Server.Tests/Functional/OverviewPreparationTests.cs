using System.Net;
using IfiDashboard.Client.Pages.Overview;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// Once someone has opened the overview, each new assessment is published with the overview's model already derived:
/// no request pays for it (at 100,000 instances the first request after an assessment did, about 130 ms).
/// </summary>
public sealed class OverviewPreparationTests
{
    [Fact]
    public async Task After_the_overview_was_opened_a_new_assessment_is_published_with_its_overview_derived()
    {
        await using var host = new DashboardHost(new ScenarioInstance { Name = "prepared", Profile = "2019" });
        await host.RegisterFleetAsync();
        await host.PollAllAsync();
        var assessments = host.Services.GetRequiredService<FleetAssessments>();
        var opened = await host.CreateClient().GetAsync("/");
        Assert.Equal(HttpStatusCode.OK, opened.StatusCode);

        var landed = await assessments.RecomputeAsync(CancellationToken.None);

        Assert.True(OverviewModel.IsDerived(landed), "the new assessment was published before its overview model was derived");
    }
}
