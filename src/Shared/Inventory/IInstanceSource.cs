namespace IfiDashboard.Shared.Inventory;

/// <summary>
/// Hands the collector the instances that are due, leased to it so that two collectors never poll one instance at once.
/// </summary>
public interface IInstanceSource
{
    Task<IReadOnlyList<InstanceRegistration>> LeaseDueAsync(string collectorName, int maxCount, TimeSpan leaseDuration,
        CancellationToken cancellationToken);

    /// <summary>
    /// Frees every lease this collector holds. Called when a collector starts: a restarted collector is polling
    /// nothing, so its old leases would only delay those instances until they expire.
    /// </summary>
    Task ReleaseAllAsync(string collectorName, CancellationToken cancellationToken);

    /// <summary>Ends the lease and schedules the next poll.</summary>
    Task CompleteAsync(long instanceId, string collectorName, DateTimeOffset nextPollAt, CancellationToken cancellationToken);
}
