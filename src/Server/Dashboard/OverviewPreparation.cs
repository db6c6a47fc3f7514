using IfiDashboard.Client.Pages.Overview;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Server.Compliance;

namespace IfiDashboard.Server.Dashboard;

/// <summary>
/// Derives the overview's model as soon as an assessment lands, off the request path, while someone has opened the
/// overview in the last <see cref="Recently"/> (<see cref="OverviewModel.Prepare"/>). At 100,000 instances a timed
/// assessment lands every minute, and the first <c>GET /</c> after each paid the derivation (docs/benchmarks.md, "At
/// 100,000 instances on PostgreSQL").
/// </summary>
public sealed class OverviewPreparation(IFleetAssessments assessments, ILogger<OverviewPreparation> logger)
    : AfterEachAssessment(assessments)
{
    public static readonly TimeSpan Recently = TimeSpan.FromMinutes(15);

    protected override async Task OnAssessedAsync(CancellationToken stoppingToken) =>
        OverviewModel.Prepare(await Assessments.GetAsync(stoppingToken), Recently);

    // The page derives the model itself then, and says what is wrong if it cannot.
    protected override void OnFailed(Exception error) =>
        logger.LogWarning(error, "Preparing the overview after an assessment failed");
}
