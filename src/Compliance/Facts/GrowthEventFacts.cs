namespace IfiDashboard.Compliance.Facts;

/// <summary>
/// One growth row of the default trace, in its own units: duration in microseconds, growth in 8-KB pages.
/// <see cref="StartTime"/> must be on the same clock as the poll times; the trace writes server local time, so the
/// collector attaches the server's offset.
/// </summary>
public sealed record GrowthEventFacts
{
    public const int DataFileAutoGrow = 92;
    public const int LogFileAutoGrow = 93;

    public required int EventClass { get; init; }
    public required int DatabaseId { get; init; }
    public required string DatabaseName { get; init; }

    /// <summary>The trace's FileName column: the logical file name.</summary>
    public required string LogicalFileName { get; init; }

    public required DateTimeOffset StartTime { get; init; }
    public required long DurationMicroseconds { get; init; }

    /// <summary>The trace's IntegerData column.</summary>
    public required long GrowthPages { get; init; }

    public bool IsDataGrowth => EventClass == DataFileAutoGrow;
    public bool IsLogGrowth => EventClass == LogFileAutoGrow;

    /// <summary>Shrink events (94, 95) share the trace but are not growth and never zero anything.</summary>
    public bool IsAutoGrowth => IsDataGrowth || IsLogGrowth;

    public long GrowthBytes => Pages.ToBytes(GrowthPages);

    /// <summary>Negative durations do not occur in the trace; treat a corrupt one as zero rather than subtract time.</summary>
    public long SafeDurationMicroseconds => Math.Max(0, DurationMicroseconds);
}
