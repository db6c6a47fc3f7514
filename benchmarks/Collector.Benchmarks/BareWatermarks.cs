using System.Collections.Concurrent;

namespace IfiDashboard.Collector.Benchmarks;

/// <summary>The bare loop's growth-event watermark, so repeated polls send the same @since as the collector's.</summary>
internal sealed class BareWatermarks
{
    static readonly DateTime Beginning = new(1900, 1, 1);
    readonly ConcurrentDictionary<long, DateTime> _newest = new();

    public DateTime Since(long instanceId) => _newest.GetValueOrDefault(instanceId, Beginning);

    public void Advance(long instanceId, DateTime newest) => _newest[instanceId] = newest;
}
