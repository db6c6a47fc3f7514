using IfiDashboard.Server.Compliance;

namespace IfiDashboard.Server.Api.Changes;

/// <summary>
/// Records status transitions as assessments happen, so a status that flips and flips back between two reads of the
/// feed still shows both changes. No recording at start: the first assessment (or the first read of the feed) does it.
/// </summary>
public sealed class ChangeJournalService(
    FleetAssessments assessments,
    ChangeRecorder recorder,
    ILogger<ChangeJournalService> logger) : AfterEachAssessment(assessments)
{
    protected override Task OnAssessedAsync(CancellationToken stoppingToken) => recorder.CatchUpAsync(stoppingToken);

    protected override void OnFailed(Exception error) =>
        logger.LogError(error, "Recording changes failed; the next assessment or read of the feed tries again");
}
