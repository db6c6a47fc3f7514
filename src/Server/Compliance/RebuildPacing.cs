namespace IfiDashboard.Server.Compliance;

/// <summary>
/// How long the background assessment waits after stored data changed before it rebuilds. A burst of polls settles
/// for a second. While polls keep landing (an embedded collector polling 10,000 instances a minute), rebuilds would
/// otherwise run back to back. So the pause after a rebuild lasts at least twice the rebuild (a rebuild of every
/// instance takes seconds at that size: the server spends at most a third of its time on those), and at least
/// 3 ms per instance: an incremental rebuild still reads and recombines every instance's row, 25 to 45 µs of CPU
/// each, so at 10,000 instances rebuilds come at most every 30 s, 0.8 to 1.6 % of a core where issue 16 allows 2 %
/// (docs/benchmarks.md#incremental-assessment). It does not depend on how busy the machine is. A small fleet, whose
/// rebuild takes milliseconds, is still current within about a second.
/// </summary>
internal sealed class RebuildPacing(TimeProvider time)
{
    public static readonly TimeSpan Settle = TimeSpan.FromSeconds(1);

    /// <summary>A rebuild slowed down by a busy machine must not hold the next one back longer than the timed refresh.</summary>
    public static readonly TimeSpan MaximumPause = TimeSpan.FromMinutes(1);

    const int PauseFactor = 2;

    public static readonly TimeSpan PausePerInstance = TimeSpan.FromMilliseconds(3);

    DateTimeOffset _earliestNext = DateTimeOffset.MinValue;

    /// <summary>Records a rebuild of <paramref name="instances"/> that started at <paramref name="startedAt"/> and has just finished.</summary>
    public void Built(DateTimeOffset startedAt, int instances)
    {
        var finished = time.GetUtcNow();
        var pause = TimeSpan.FromTicks(Math.Max((finished - startedAt).Ticks * PauseFactor, PausePerInstance.Ticks * instances));
        _earliestNext = finished + (pause < MaximumPause ? pause : MaximumPause);
    }

    /// <summary>The wait before rebuilding for a change noticed now.</summary>
    public TimeSpan DelayAfterChange()
    {
        var untilEarliest = _earliestNext - time.GetUtcNow();
        return untilEarliest > Settle ? untilEarliest : Settle;
    }
}
