namespace IfiDashboard.Collector.Benchmarks;

/// <summary>Poll latencies of one phase. A few hundred records a second: a plain lock costs nothing measurable.</summary>
internal sealed class LatencyRecorder
{
    readonly List<double> _milliseconds = new(4096);
    readonly Lock _lock = new();

    public int Count
    {
        get { lock (_lock) return _milliseconds.Count; }
    }

    public void Record(double milliseconds)
    {
        lock (_lock) _milliseconds.Add(milliseconds);
    }

    public double Mean()
    {
        lock (_lock) return _milliseconds.Count == 0 ? double.NaN : _milliseconds.Average();
    }

    public void Add(LatencyRecorder other)
    {
        double[] theirs;
        lock (other._lock) theirs = [.. other._milliseconds];
        lock (_lock) _milliseconds.AddRange(theirs);
    }

    /// <summary>Nearest-rank percentile; NaN when nothing was recorded.</summary>
    public double Percentile(double fraction)
    {
        double[] sorted;
        lock (_lock) sorted = [.. _milliseconds];
        if (sorted.Length == 0) return double.NaN;
        Array.Sort(sorted);
        return sorted[Math.Clamp((int)Math.Ceiling(fraction * sorted.Length) - 1, 0, sorted.Length - 1)];
    }
}
