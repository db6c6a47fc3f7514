namespace IfiDashboard.Collector.Benchmarks;

/// <summary>One loop's measured phases taken together: rates from summed polls over summed wall time.</summary>
internal sealed record LoopSummary(IReadOnlyList<PhaseResult> Phases)
{
    public int Polls => Phases.Sum(p => p.Polls);
    public int Failures => Phases.Sum(p => p.Failures);
    double WallSeconds => Phases.Sum(p => p.Measurement.Wall.TotalSeconds);
    public double PollsPerSecond => Polls / WallSeconds;
    public double CpuPercent => 100 * Phases.Sum(p => p.Measurement.Cpu.TotalSeconds) / WallSeconds;
    public double? SimulatorCpuPercent => Phases.All(p => p.Measurement.SimulatorCpu is not null)
        ? 100 * Phases.Sum(p => p.Measurement.SimulatorCpu!.Value.TotalSeconds) / WallSeconds
        : null;
    public double? OthersCpuPercent => Phases.All(p => p.Measurement.OthersCpu is not null)
        ? 100 * Phases.Sum(p => p.Measurement.OthersCpu!.Value.TotalSeconds) / WallSeconds
        : null;
    public double CpuMsPerPoll => Phases.Sum(p => p.Measurement.Cpu.TotalMilliseconds) / Polls;
    public double AllocatedKbPerPoll => Phases.Sum(p => p.Measurement.AllocatedBytes) / 1024.0 / Polls;
    public double PeakWorkingSetMb => Phases.Max(p => p.Measurement.PeakWorkingSet) / 1024.0 / 1024.0;
    public string Collections => string.Join("/", Enumerable.Range(0, 3).Select(g => Phases.Sum(p => p.Measurement.Collections[g])));

    public double Percentile(double fraction)
    {
        var all = new LatencyRecorder();
        foreach (var phase in Phases) all.Add(phase.Latencies);
        return all.Percentile(fraction);
    }
}
