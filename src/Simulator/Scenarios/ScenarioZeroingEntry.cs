namespace IfiDashboard.Simulator.Scenarios;

/// <summary>
/// One file zeroing reported by trace flags 3004 and 3605: a "Zeroing ... from page ... to ..." line at
/// <see cref="Time"/> and a "Zeroing completed on ..." line when it ended (reference section 5).
/// </summary>
public sealed class ScenarioZeroingEntry
{
    /// <summary>When zeroing started, in UTC; the error log shows server local time.</summary>
    public DateTimeOffset Time { get; set; }

    public required string PhysicalName { get; set; }

    public long FromPage { get; set; }

    public long ToPage { get; set; }

    /// <summary>Null for builds whose completion line has no "(elapsed = n ms)" part.</summary>
    public int? ElapsedMs { get; set; }

    public int Spid { get; set; } = 57;
}
