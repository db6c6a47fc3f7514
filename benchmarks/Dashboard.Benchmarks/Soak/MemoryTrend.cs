namespace IfiDashboard.Dashboard.Benchmarks.Soak;

/// <summary>
/// Whether resident memory stayed flat after warm-up: the sample at the end of warm-up against the highest after it
/// and the last, with the least-squares slope over the samples after warm-up (growth shows there before it shows as a peak).
/// </summary>
internal sealed record MemoryTrend(double Baseline, double Max, double Final, double PeakHwm, double SlopeMbPerHour)
{
    public double MaxGrowth => Baseline > 0 ? Max / Baseline - 1 : double.PositiveInfinity;
    public double FinalGrowth => Baseline > 0 ? Final / Baseline - 1 : double.PositiveInfinity;

    public static MemoryTrend Of(IReadOnlyList<(TimeSpan At, ProcessMemory Memory)> samples, TimeSpan warmup, ProcessMemory final)
    {
        var after = samples.Where(s => s.At >= warmup).ToList();
        if (after.Count == 0) return new MemoryTrend(0, 0, final.RssMb, final.PeakRssMb, 0);
        var baseline = after[0].Memory.RssMb;
        var hours = after.Select(s => s.At.TotalHours).ToList();
        var megabytes = after.Select(s => s.Memory.RssMb).ToList();
        var meanX = hours.Average();
        var meanY = megabytes.Average();
        var spread = hours.Sum(x => (x - meanX) * (x - meanX));
        var slope = spread > 0 ? hours.Zip(megabytes, (x, y) => (x - meanX) * (y - meanY)).Sum() / spread : 0;
        return new MemoryTrend(baseline, Math.Max(megabytes.Max(), final.RssMb), final.RssMb, final.PeakRssMb, slope);
    }

    public string Describe() =>
        $"{Baseline:F0} MB after warm-up, max {Max:F0} MB ({MaxGrowth:+0.0%;-0.0%}), final {Final:F0} MB ({FinalGrowth:+0.0%;-0.0%}); " +
        $"trend {SlopeMbPerHour:+0;-0} MB/h; VmHWM {PeakHwm:F0} MB";
}
