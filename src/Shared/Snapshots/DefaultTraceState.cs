namespace IfiDashboard.Shared.Snapshots;

/// <summary>What the default trace probe found: the source of growth events and their timings.</summary>
public sealed record DefaultTraceState(bool Enabled, string? CurrentPath, int EventsRead);
