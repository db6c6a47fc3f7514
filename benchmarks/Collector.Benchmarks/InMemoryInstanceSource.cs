using System.Collections.Concurrent;
using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Collector.Benchmarks;

/// <summary>
/// Leases instances from memory, so the benchmark measures the collector and not a store. Repeating, a completed
/// instance goes to the back of the queue: due again after every other instance, and never leased twice at once.
/// </summary>
internal sealed class InMemoryInstanceSource(IReadOnlyList<InstanceRegistration> instances, bool repeat) : IInstanceSource
{
    readonly ConcurrentQueue<InstanceRegistration> _due = new(instances);
    readonly Dictionary<long, InstanceRegistration> _byId = instances.ToDictionary(i => i.Id);

    public Task<IReadOnlyList<InstanceRegistration>> LeaseDueAsync(string collectorName, int maxCount, TimeSpan leaseDuration,
        CancellationToken cancellationToken)
    {
        var leased = new List<InstanceRegistration>(Math.Min(maxCount, 64));
        while (leased.Count < maxCount && _due.TryDequeue(out var instance)) leased.Add(instance);
        return Task.FromResult<IReadOnlyList<InstanceRegistration>>(leased);
    }

    public Task ReleaseAllAsync(string collectorName, CancellationToken cancellationToken) => Task.CompletedTask;

    public Task CompleteAsync(long instanceId, string collectorName, DateTimeOffset nextPollAt, CancellationToken cancellationToken)
    {
        if (repeat) _due.Enqueue(_byId[instanceId]);
        return Task.CompletedTask;
    }
}
