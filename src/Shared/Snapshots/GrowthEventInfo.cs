namespace IfiDashboard.Shared.Snapshots;

/// <summary>
/// A file growth or shrink event of the default trace, converted to UTC by the collector (the trace records server
/// local time). Duration is in microseconds and growth in 8-KB pages, as the trace stores them.
/// </summary>
public sealed record GrowthEventInfo
{
    /// <summary>92 Data File Auto Grow, 93 Log File Auto Grow, 94 Data File Auto Shrink, 95 Log File Auto Shrink.</summary>
    public required int EventClass { get; init; }
    public int DatabaseId { get; init; }
    public required string DatabaseName { get; init; }
    /// <summary>The logical file name.</summary>
    public required string FileName { get; init; }
    public required DateTimeOffset StartTime { get; init; }
    /// <summary>
    /// StartTime as the trace holds it, in the server's local time: the event's identity. Its UTC conversion uses the
    /// offset when polled, so an event from before a daylight-saving change converts differently after it; keyed on
    /// this, a re-read stores nothing twice. Null from collectors older than this field.
    /// </summary>
    public DateTime? StartTimeLocal { get; init; }
    public DateTimeOffset? EndTime { get; init; }
    public long DurationMicroseconds { get; init; }
    public long GrowthPages { get; init; }
}
