namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>Request times of one page, in milliseconds, with nearest-rank percentiles.</summary>
internal sealed record Latencies(string Page, IReadOnlyList<double> Milliseconds, long Bytes)
{
    public double P50 => Percentile(0.50);
    public double P95 => Percentile(0.95);
    public double Max => Milliseconds.Max();

    double Percentile(double p)
    {
        var sorted = Milliseconds.Order().ToList();
        var rank = (int)Math.Ceiling(p * sorted.Count);
        return sorted[Math.Clamp(rank - 1, 0, sorted.Count - 1)];
    }
}
