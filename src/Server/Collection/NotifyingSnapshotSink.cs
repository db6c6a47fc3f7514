using IfiDashboard.Server.Store;
using IfiDashboard.Server.Store.Ingestion;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Server.Collection;

/// <summary>Stores a snapshot, then tells open pages that the fleet changed.</summary>
public sealed class NotifyingSnapshotSink(SnapshotStore store, FleetChanges changes) : ISnapshotSink
{
    public async Task WriteAsync(InstanceSnapshot snapshot, CancellationToken cancellationToken)
    {
        await store.WriteAsync(snapshot, cancellationToken);
        changes.Publish();
    }

    /// <summary>
    /// A standalone collector's snapshot: stored only when that collector leased its instance and held it when the poll
    /// started (<see cref="SnapshotStore.WriteAsync(InstanceSnapshot, string?, CancellationToken, TimeSpan)"/>).
    /// </summary>
    public async Task<bool> WriteLeasedAsync(InstanceSnapshot snapshot, string collectorName, TimeSpan clockSkew,
        CancellationToken cancellationToken)
    {
        if (!await store.WriteAsync(snapshot, collectorName, cancellationToken, clockSkew))
            return false;
        changes.Publish();
        return true;
    }
}
