using System.Collections.Concurrent;

namespace IfiDashboard.Collector.Probes;

/// <summary>
/// The newest growth-event start time (server local time) read from each instance, so a poll reads only newer
/// events. Kept in memory: after a restart, or when an instance moves to another collector, the first poll reads the
/// whole trace again, and ingestion, keyed by (instance, database, file, event class, start time), stores nothing twice.
/// </summary>
public sealed class GrowthWatermarks
{
    /// <summary>Before any default trace: reads everything.</summary>
    public static readonly DateTime Beginning = new(1900, 1, 1);

    readonly ConcurrentDictionary<long, DateTime> _newest = new();

    public DateTime Since(long instanceId) => _newest.GetValueOrDefault(instanceId, Beginning);

    public void Advance(long instanceId, DateTime newestStart) =>
        _newest.AddOrUpdate(instanceId, newestStart, (_, old) => newestStart > old ? newestStart : old);
}
