namespace IfiDashboard.Simulator.Scenarios;

/// <summary>
/// Changes to an instance's history while it runs. Every list is replaced, never changed in place, so a query that is
/// reading the old list at the same moment keeps a consistent snapshot without locking.
/// </summary>
public sealed partial class ScenarioInstance
{
    private readonly Lock _history = new();

    /// <summary>Records a growth as the default trace would: it lands in the current file, rolling over when full.</summary>
    public void AppendGrowthEvent(ScenarioGrowthEvent growth)
    {
        ArgumentNullException.ThrowIfNull(growth);
        lock (_history)
        {
            GrowthEvents = [.. GrowthEvents, growth];
        }
    }

    /// <summary>Starts a new trace file now, as a service restart does; the oldest file beyond MaxFiles is deleted.</summary>
    public void RollDefaultTraceOver()
    {
        lock (_history)
        {
            DefaultTrace.RolloverAfterEvents = [.. DefaultTrace.RolloverAfterEvents, GrowthEvents.Count];
        }
    }

    public void AppendErrorLogZeroing(ScenarioZeroingEntry zeroing)
    {
        ArgumentNullException.ThrowIfNull(zeroing);
        lock (_history)
        {
            ErrorLogZeroing = [.. ErrorLogZeroing, zeroing];
        }
    }

    public void AppendBackup(ScenarioBackup backup)
    {
        ArgumentNullException.ThrowIfNull(backup);
        lock (_history)
        {
            Backups = [.. Backups, backup];
        }
    }

    /// <summary>The growth events and the trace's rollover points, read together so they agree with each other.</summary>
    internal (IReadOnlyList<ScenarioGrowthEvent> Events, IReadOnlyList<int> Rollovers) TraceHistory()
    {
        lock (_history)
        {
            return (GrowthEvents, DefaultTrace.RolloverAfterEvents);
        }
    }
}
