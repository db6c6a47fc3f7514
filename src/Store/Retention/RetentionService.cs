using Microsoft.Extensions.Options;

namespace IfiDashboard.Store.Retention;

/// <summary>
/// Runs a pruning pass every <c>Retention:IntervalMinutes</c>. The first pass waits a minute after start, so the
/// collector's first round of polls (every instance due at once) does not also wait behind pruning.
/// </summary>
public sealed class RetentionService(
    RetentionPruner pruner,
    IOptions<RetentionOptions> options,
    TimeProvider time,
    ILogger<RetentionService> logger) : BackgroundService
{
    static readonly TimeSpan FirstPassDelay = TimeSpan.FromMinutes(1);

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var settings = options.Value;
        if (!settings.Enabled)
        {
            logger.LogInformation("Retention is off (Retention:Enabled=false): polls, growth events, alert mail and the audit log are kept for ever");
            return;
        }

        try
        {
            await Task.Delay(FirstPassDelay, time, stoppingToken);
            while (!stoppingToken.IsCancellationRequested)
            {
                try
                {
                    await pruner.PruneOnceAsync(stoppingToken);
                }
                catch (Exception e) when (e is not OperationCanceledException)
                {
                    // A busy store (SQLITE_BUSY after the busy timeout) or any other failure: what was committed stays
                    // deleted, and the next pass carries on from the oldest rows left.
                    logger.LogError(e, "Retention pass failed; the next pass in {Interval} tries again", TimeSpan.FromMinutes(settings.IntervalMinutes));
                }
                await Task.Delay(TimeSpan.FromMinutes(settings.IntervalMinutes), time, stoppingToken);
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
        }
    }
}
