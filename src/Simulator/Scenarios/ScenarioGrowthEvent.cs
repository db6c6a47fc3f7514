namespace IfiDashboard.Simulator.Scenarios;

/// <summary>
/// An automatic growth or shrink of a file, as the default trace records it (event classes 92 to 95). The scenario
/// gives times in UTC; the trace reports them in the server's local time.
/// </summary>
public sealed class ScenarioGrowthEvent
{
    /// <summary>92 Data File Auto Grow, 93 Log File Auto Grow, 94 Data File Auto Shrink, 95 Log File Auto Shrink.</summary>
    public int EventClass { get; set; } = 92;

    public required string Database { get; set; }

    /// <summary>The logical file name.</summary>
    public required string FileName { get; set; }

    public DateTimeOffset StartTime { get; set; }

    /// <summary>How long the growth took, in microseconds (the trace file's unit).</summary>
    public long DurationMicroseconds { get; set; }

    /// <summary>Growth in 8-KB pages (the trace's IntegerData).</summary>
    public int GrowthPages { get; set; } = 8192;

    /// <summary>The session whose insert triggered the growth; below 51 counts as a system session.</summary>
    public int Spid { get; set; } = 57;

    public string? ApplicationName { get; set; }

    public string? HostName { get; set; }

    public string? LoginName { get; set; }
}
