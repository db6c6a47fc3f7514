using IfiDashboard.Server.Store.Ingestion;
using IfiDashboard.Shared.Dashboard;
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
}
