using System.Threading.Channels;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;

namespace IfiDashboard.Server.Api.Changes;

/// <summary>
/// Records status transitions as assessments happen, so a status that flips and flips back between two reads of the
/// feed still shows both changes. The event handler only signals: it runs inside the assessment's lock.
/// </summary>
public sealed class ChangeJournalService(
    FleetAssessments assessments,
    ChangeRecorder recorder,
    ILogger<ChangeJournalService> logger) : BackgroundService
{
    readonly Channel<bool> _assessed = Channel.CreateBounded<bool>(new BoundedChannelOptions(1)
    {
        FullMode = BoundedChannelFullMode.DropWrite,
    });

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        void OnAssessed() => _assessed.Writer.TryWrite(true);
        assessments.Assessed += OnAssessed;
        try
        {
            // No recording at start: the first assessment (or the first read of the feed) does it, and a start-up
            // that computed nothing should write nothing.
            await foreach (var _ in _assessed.Reader.ReadAllAsync(stoppingToken))
            {
                try
                {
                    await recorder.CatchUpAsync(stoppingToken);
                }
                catch (Exception e) when (e is not OperationCanceledException)
                {
                    logger.LogError(e, "Recording changes failed; the next assessment or read of the feed tries again");
                }
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
        }
        finally
        {
            assessments.Assessed -= OnAssessed;
        }
    }
}
