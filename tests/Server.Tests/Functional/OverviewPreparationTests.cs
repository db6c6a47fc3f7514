using System.Net;
using IfiDashboard.Client.Pages.Overview;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Server.Tests.Alerts;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// Once someone has opened the overview, each new assessment has the overview's model derived as it lands, before any
/// request asks for it (at 100,000 instances the first request after an assessment paid for it).
/// </summary>
public sealed class OverviewPreparationTests
{
    [Fact]
    public async Task After_the_overview_was_opened_a_new_assessment_has_its_overview_derived_before_any_request()
    {
        await using var host = new DashboardHost(new ScenarioInstance { Name = "prepared", Profile = "2019" });
        await host.RegisterFleetAsync();
        await host.PollAllAsync();
        var assessments = host.Services.GetRequiredService<FleetAssessments>();
        var opened = await host.CreateClient().GetAsync("/");
        Assert.Equal(HttpStatusCode.OK, opened.StatusCode);

        await assessments.RecomputeAsync(CancellationToken.None);

        // Whichever assessment is the latest by then (a timed one may follow the recomputed one), its model is there.
        var derived = await Eventually.WaitAsync(async () => OverviewModel.IsDerived(await assessments.GetAsync(CancellationToken.None)), d => d);
        Assert.True(derived, "the latest assessment's overview model was not derived within 20 s of it landing");
    }
}
