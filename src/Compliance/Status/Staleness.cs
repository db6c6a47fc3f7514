namespace IfiDashboard.Compliance.Status;

public static class Staleness
{
    public const int IntervalsBeforeStale = 3;

    /// <summary>
    /// Stale when the last good poll is strictly older than three poll intervals. An instance never polled
    /// successfully is not "stale": it has no status to go stale, and its Unknown status already says why.
    /// </summary>
    public static bool IsStale(DateTimeOffset? lastGoodPollAt, TimeSpan pollInterval, DateTimeOffset now) =>
        lastGoodPollAt is { } last && now >= StaleFrom(last, pollInterval);

    /// <summary>The first moment at which a status resting on <paramref name="lastGoodPollAt"/> is stale.</summary>
    public static DateTimeOffset StaleFrom(DateTimeOffset lastGoodPollAt, TimeSpan pollInterval) =>
        lastGoodPollAt + pollInterval * IntervalsBeforeStale + TimeSpan.FromTicks(1);
}
