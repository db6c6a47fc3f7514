using IfiDashboard.Server.Store;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Server.Collection;

/// <summary>
/// The embedded collector's sink: a poll the store is too busy to take is stored again, with growing pauses, until it
/// is stored or the server stops. The collector has no outbox inside the server, so giving up would lose the poll;
/// storing is idempotent by snapshot id, so a retry after a write that did land stores nothing twice. The collectors'
/// API does not come through here: it answers 503 and the standalone collector's outbox retries.
/// </summary>
public sealed class RetryingSnapshotSink(NotifyingSnapshotSink inner, TimeProvider time, ILogger<RetryingSnapshotSink> logger) : ISnapshotSink
{
    static readonly TimeSpan FirstPause = TimeSpan.FromMilliseconds(250);
    static readonly TimeSpan LongestPause = TimeSpan.FromSeconds(15);

    public async Task WriteAsync(InstanceSnapshot snapshot, CancellationToken cancellationToken)
    {
        var pause = FirstPause;
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                await inner.WriteAsync(snapshot, cancellationToken);
                if (attempt > 1)
                    logger.LogInformation("Stored the poll of instance {InstanceId} after {Attempts} attempts", snapshot.InstanceId, attempt);
                return;
            }
            catch (Exception e) when (StoreBusy.IsBusy(e) && !cancellationToken.IsCancellationRequested)
            {
                logger.LogWarning("The store is busy: the poll of instance {InstanceId} is kept and stored again in {Pause} (attempt {Attempt})",
                    snapshot.InstanceId, pause, attempt);
            }
            await Task.Delay(pause, time, cancellationToken);
            pause = TimeSpan.FromTicks(Math.Min(pause.Ticks * 2, LongestPause.Ticks));
        }
    }
}
