namespace IfiDashboard.Simulator.Scenarios;

/// <summary>
/// The default trace: whether it runs and how its rollover files fill. A real file holds 20 MB of all kinds of events;
/// here a file holds <see cref="EventsPerFile"/> growth events, so which events have aged out is deterministic.
/// </summary>
public sealed class ScenarioDefaultTrace
{
    /// <summary>sp_configure 'default trace enabled'. Off: no sys.traces row and no trace files to read.</summary>
    public bool Enabled { get; set; } = true;

    /// <summary>SQL Server keeps five rollover files and deletes the oldest when a sixth starts.</summary>
    public int MaxFiles { get; set; } = 5;

    public int EventsPerFile { get; set; } = 1000;

    /// <summary>The number in the first file's name (log_N.trc); it grows by one per rollover.</summary>
    public int FirstFileNumber { get; set; } = 1;

    /// <summary>
    /// Growth-event counts after which the trace started a new file before the current one was full, as a service
    /// restart or <see cref="ScenarioInstance.RollDefaultTraceOver"/> does. Ascending.
    /// </summary>
    public IReadOnlyList<int> RolloverAfterEvents { get; set; } = [];
}
