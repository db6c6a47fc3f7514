using IfiDashboard.Store;
using IfiDashboard.Store.Ingestion;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Server.Collection;

/// <summary>
/// Stores a snapshot, then tells open pages that the fleet changed. Every poll, embedded or delivered, is stored
/// through here, so here the store is seen to fail with a fault or to take writes again (<see cref="StoreFaults"/>).
/// </summary>
public sealed class NotifyingSnapshotSink(SnapshotStore store, FleetChanges changes, StoreFaults faults) : ISnapshotSink
{
    public async Task WriteAsync(InstanceSnapshot snapshot, CancellationToken cancellationToken)
    {
        await Watched(() => store.WriteAsync(snapshot, cancellationToken));
        changes.Publish();
    }

    /// <summary>
    /// A standalone collector's snapshot: stored only when that collector leased its instance and held it when the poll
    /// started (<see cref="SnapshotStore.WriteAsync(InstanceSnapshot, string?, CancellationToken, TimeSpan, DateTimeOffset)"/>),
    /// completing the lease with it when the snapshot says when the instance is polled next (at <paramref name="now"/>).
    /// </summary>
    public async Task<bool> WriteLeasedAsync(InstanceSnapshot snapshot, string collectorName, TimeSpan clockSkew,
        DateTimeOffset now, CancellationToken cancellationToken)
    {
        var stored = false;
        await Watched(async () => stored = await store.WriteAsync(snapshot, collectorName, cancellationToken, clockSkew, now));
        if (!stored)
            return false;
        changes.Publish();
        return true;
    }

    async Task Watched(Func<Task> write)
    {
        try
        {
            await write();
        }
        catch (Exception e) when (faults.Record(e))
        {
            throw;
        }
        faults.Cleared();
    }
}
