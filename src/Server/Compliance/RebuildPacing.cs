namespace IfiDashboard.Server.Compliance;

/// <summary>
/// How long the background assessment waits after stored data changed before it rebuilds. A burst of polls settles
/// for a second. While polls keep landing (an embedded collector polling 10,000 instances a minute), rebuilds would
/// otherwise run back to back: at that size each takes seconds and allocates hundreds of megabytes while the previous
/// assessment is still in use. So the pause after a rebuild lasts at least twice the rebuild: the server spends at
/// most a third of its time assessing, and a small fleet, whose rebuild takes milliseconds, is still current within
/// about a second.
/// </summary>
internal sealed class RebuildPacing(TimeProvider time)
{
    public static readonly TimeSpan Settle = TimeSpan.FromSeconds(1);

    /// <summary>A rebuild slowed down by a busy machine must not hold the next one back longer than the timed refresh.</summary>
    public static readonly TimeSpan MaximumPause = TimeSpan.FromMinutes(1);

    const int PauseFactor = 2;

    DateTimeOffset _earliestNext = DateTimeOffset.MinValue;

    /// <summary>Records a rebuild that started at <paramref name="startedAt"/> and has just finished.</summary>
    public void Built(DateTimeOffset startedAt)
    {
        var finished = time.GetUtcNow();
        var pause = (finished - startedAt) * PauseFactor;
        _earliestNext = finished + (pause < MaximumPause ? pause : MaximumPause);
    }

    /// <summary>The wait before rebuilding for a change noticed now.</summary>
    public TimeSpan DelayAfterChange()
    {
        var untilEarliest = _earliestNext - time.GetUtcNow();
        return untilEarliest > Settle ? untilEarliest : Settle;
    }
}
