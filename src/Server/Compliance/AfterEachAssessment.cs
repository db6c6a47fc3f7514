using System.Threading.Channels;
using IfiDashboard.Compliance.Assessment;

namespace IfiDashboard.Server.Compliance;

/// <summary>
/// Background work that follows the assessments: <see cref="OnAssessedAsync"/> runs after a new assessment lands, one
/// run at a time; assessments that land while it runs are taken together by the next run. The event handler only
/// signals, because it runs inside the assessment's lock. Nothing runs at start: a start-up that assessed nothing has
/// nothing to follow.
/// </summary>
public abstract class AfterEachAssessment(IFleetAssessments assessments) : BackgroundService
{
    readonly Channel<bool> _assessed = Channel.CreateBounded<bool>(new BoundedChannelOptions(1)
    {
        FullMode = BoundedChannelFullMode.DropWrite,
    });

    /// <summary>The assessments followed: <see cref="IFleetAssessments.GetAsync"/> is the one that just landed, or a later one.</summary>
    protected IFleetAssessments Assessments => assessments;

    protected abstract Task OnAssessedAsync(CancellationToken stoppingToken);

    /// <summary>A run failed; the next assessment runs it again.</summary>
    protected abstract void OnFailed(Exception error);

    protected sealed override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        void OnAssessed() => _assessed.Writer.TryWrite(true);
        assessments.Assessed += OnAssessed;
        try
        {
            await foreach (var _ in _assessed.Reader.ReadAllAsync(stoppingToken))
            {
                try
                {
                    await OnAssessedAsync(stoppingToken);
                }
                catch (Exception e) when (e is not OperationCanceledException)
                {
                    OnFailed(e);
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
