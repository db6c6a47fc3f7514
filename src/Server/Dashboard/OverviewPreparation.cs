using IfiDashboard.Client.Pages.Overview;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;

namespace IfiDashboard.Server.Dashboard;

/// <summary>
/// Derives the overview's model of a new assessment before it is published, while someone has opened the overview
/// in the last <see cref="Recently"/> (<see cref="OverviewModel.Prepare"/>). At 100,000 instances a timed assessment
/// lands every minute, and the first <c>GET /</c> after each paid the derivation, about 130 ms (docs/benchmarks.md,
/// "An assessment landing while the overview is read").
/// </summary>
public sealed class OverviewPreparation : IAssessmentPreparer
{
    public static readonly TimeSpan Recently = TimeSpan.FromMinutes(15);

    public void Prepare(FleetAssessment assessment) => OverviewModel.Prepare(assessment, Recently);
}
