namespace IfiDashboard.Collector.Benchmarks;

/// <summary>One measured phase of one loop.</summary>
internal sealed record PhaseResult(string Loop, int Polls, int Failures, Measurement Measurement, LatencyRecorder Latencies, SqlTimings.Totals? Breakdown = null)
{
    public double PollsPerSecond => Polls / Measurement.Wall.TotalSeconds;
    /// <summary>Cores busy on average: 1.0 is one core for the whole phase.</summary>
    public double CpuCores => Measurement.Cpu.TotalSeconds / Measurement.Wall.TotalSeconds;
    public double? SimulatorCores => Measurement.SimulatorCpu?.TotalSeconds / Measurement.Wall.TotalSeconds;
    public double? OthersCores => Measurement.OthersCpu?.TotalSeconds / Measurement.Wall.TotalSeconds;
    public double AllocatedKbPerPoll => Polls == 0 ? 0 : Measurement.AllocatedBytes / 1024.0 / Polls;
    public double CpuMsPerPoll => Polls == 0 ? 0 : Measurement.Cpu.TotalMilliseconds / Polls;
}
