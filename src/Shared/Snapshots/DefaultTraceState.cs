namespace IfiDashboard.Shared.Snapshots;

/// <summary>What the default trace probe found: the source of growth events and their timings.</summary>
public sealed record DefaultTraceState(bool Enabled, string? CurrentPath, int EventsRead)
{
    /// <summary>
    /// The oldest event the trace's surviving rollover files hold (UTC): the growth evidence reaches back no further
    /// than this on an instance polled for the first time. Null when not read or when the trace is empty.
    /// </summary>
    public DateTimeOffset? OldestEventAt { get; init; }
}
