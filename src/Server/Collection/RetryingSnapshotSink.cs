using IfiDashboard.Store;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Server.Collection;

/// <summary>
/// The embedded collector's sink: a poll the store is too busy to take, or cannot take because it is full or damaged
/// (<see cref="StoreFaults"/>), is stored again, with growing pauses, until it is stored or the server stops. The
/// collector has no outbox inside the server, so giving up would lose the poll; storing is idempotent by snapshot id,
/// so a retry after a write that did land stores nothing twice. The collectors' API does not come through here: it
/// answers 503 or 507 and the standalone collector's outbox retries.
/// </summary>
public sealed class RetryingSnapshotSink(NotifyingSnapshotSink inner, TimeProvider time, ILogger<RetryingSnapshotSink> logger) : ISnapshotSink
{
    public async Task WriteAsync(InstanceSnapshot snapshot, CancellationToken cancellationToken)
    {
        var attempts = await StoreBusy.UntilTakenAsync(() => inner.WriteAsync(snapshot, cancellationToken), time,
            (pause, attempt, error) => logger.LogWarning(
                "The store {Why}: the poll of instance {InstanceId} is kept and stored again in {Pause} (attempt {Attempt})",
                StoreFaults.Of(error) is { } fault ? StoreFaults.Describe(fault) : "is busy", snapshot.InstanceId, pause, attempt),
            cancellationToken);
        if (attempts > 1)
            logger.LogInformation("Stored the poll of instance {InstanceId} after {Attempts} attempts", snapshot.InstanceId, attempts);
    }
}
