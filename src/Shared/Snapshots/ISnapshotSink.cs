namespace IfiDashboard.Shared.Snapshots;

/// <summary>Where the collector hands a finished snapshot: the store (embedded) or the server's ingestion API.</summary>
public interface ISnapshotSink
{
    /// <summary>Stores the snapshot. Idempotent by <see cref="InstanceSnapshot.SnapshotId"/>.</summary>
    Task WriteAsync(InstanceSnapshot snapshot, CancellationToken cancellationToken);
}
