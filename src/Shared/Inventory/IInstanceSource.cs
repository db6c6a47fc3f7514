namespace IfiDashboard.Shared.Inventory;

/// <summary>
/// Hands the collector the instances that are due, leased to it so that two collectors never poll one instance at once.
/// </summary>
public interface IInstanceSource
{
    Task<IReadOnlyList<InstanceRegistration>> LeaseDueAsync(string collectorName, int maxCount, TimeSpan leaseDuration,
        CancellationToken cancellationToken);

    /// <summary>Ends the lease and schedules the next poll.</summary>
    Task CompleteAsync(long instanceId, string collectorName, DateTimeOffset nextPollAt, CancellationToken cancellationToken);
}
