using System.Collections.Concurrent;

namespace IfiDashboard.Collector.Probes;

/// <summary>
/// The newest growth-event end time (server local time) read from each instance, so a poll reads only events that
/// ended since, less <see cref="Overlap"/>. The trace writes a growth's row when it ends, so a long growth can appear
/// after a shorter one that started later: a watermark on the start time would skip it for good. The overlap re-reads
/// rows buffered out of order; ingestion, keyed by (instance, database, file, event class, local start time), stores
/// nothing twice. Beside it, the trace file that was current when the events were read: every row written since is in
/// that file or a later rollover file, so the next poll reads from it on instead of the whole trace (up to five files
/// of 20 MB). Kept in memory: after a restart, or when an instance moves to another collector, the first poll reads
/// the whole trace again.
/// </summary>
public sealed class GrowthWatermarks
{
    /// <summary>Before any default trace: reads everything.</summary>
    public static readonly DateTime Beginning = new(1900, 1, 1);

    /// <summary>How far before the newest end time each poll reads again.</summary>
    public static readonly TimeSpan Overlap = TimeSpan.FromMinutes(10);

    readonly ConcurrentDictionary<long, DateTime> _newestEnd = new();
    readonly ConcurrentDictionary<long, string> _traceFile = new();

    public DateTime Since(long instanceId) =>
        _newestEnd.TryGetValue(instanceId, out var end) && end - Overlap > Beginning ? end - Overlap : Beginning;

    public void Advance(long instanceId, DateTime newestEnd) =>
        _newestEnd.AddOrUpdate(instanceId, newestEnd, (_, old) => newestEnd > old ? newestEnd : old);

    /// <summary>The trace file current at the instance's last read; null before any read.</summary>
    public string? TraceFile(long instanceId) => _traceFile.TryGetValue(instanceId, out var file) ? file : null;

    /// <summary>Records the trace file that was current (sys.traces' path) when a read of the events began.</summary>
    public void ReadFrom(long instanceId, string currentFile) => _traceFile[instanceId] = currentFile;
}
