using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.Tracing;

/// <summary>One rollover file of the default trace (log_N.trc) and the growth events written to it.</summary>
internal sealed record TraceFile(int Number, string Path, IReadOnlyList<ScenarioGrowthEvent> Events);
