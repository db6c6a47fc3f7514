using IfiDashboard.Client.Pages.Reports;
using IfiDashboard.Compliance.Status;

namespace IfiDashboard.Server.Reports;

/// <summary>
/// Whether an instance was watched on each UTC day of a report's period, from its stored polls. The allowance is the
/// staleness rule's (<see cref="Staleness.IntervalsBeforeStale"/> poll intervals): a moment at which the latest poll
/// (or, before the first, the registration) is older than that is unwatched, as the instance's status would be
/// flagged stale then. A poll counts whatever its outcome: a failed poll is a collector at work, and the day's status
/// (Unknown) says what it learned.
/// </summary>
public static class EvidenceCoverage
{
    /// <summary>One instance's lifetime and polls, as far as the report's period needs them.</summary>
    /// <param name="PreviousPoll">The instance's last poll that finished before the period, if the store keeps one.</param>
    /// <param name="Polls">The polls that finished inside the period, oldest first.</param>
    public sealed record Watch(DateTimeOffset RegisteredAt, DateTimeOffset? RetiredAt, TimeSpan PollInterval,
        DateTimeOffset? PreviousPoll, IReadOnlyList<DateTimeOffset> Polls);

    /// <param name="observedUntil">The earlier of the period's end and the moment the report is made.</param>
    /// <param name="storeDays">The days on which the store took an assessment of any instance (the server was up).</param>
    /// <param name="statuses">The instance's worst status per day, where one was stored.</param>
    public static IReadOnlyList<EvidenceDay> Days(DateOnly firstDay, DateOnly endDay, DateTimeOffset observedUntil, Watch watch,
        IReadOnlySet<DateOnly> storeDays, IReadOnlyDictionary<DateOnly, string> statuses)
    {
        var allowance = watch.PollInterval * Staleness.IntervalsBeforeStale;
        var end = watch.RetiredAt is { } retired && retired < observedUntil ? retired : observedUntil;
        var unwatched = Unwatched(watch, allowance, end);
        var days = new List<EvidenceDay>();
        var next = 0;
        for (var day = firstDay; day < endDay; day = day.AddDays(1))
        {
            var dayStart = new DateTimeOffset(day.ToDateTime(TimeOnly.MinValue), TimeSpan.Zero);
            var dayEnd = dayStart.AddDays(1);
            var status = statuses.GetValueOrDefault(day);
            var from = Max(dayStart, watch.RegisteredAt);
            var to = end < dayEnd ? end : dayEnd;
            if (from >= to)
            {
                var reason = dayEnd <= watch.RegisteredAt ? NotMonitoredReason.BeforeRegistration
                    : watch.RetiredAt is { } r && r <= dayStart ? NotMonitoredReason.AfterRetirement
                    : NotMonitoredReason.NotYet;
                days.Add(new EvidenceDay(day, DayCoverage.NotMonitored, reason, status, 0));
                continue;
            }
            var polls = 0;
            while (next < watch.Polls.Count && watch.Polls[next] < dayEnd)
            {
                if (watch.Polls[next] >= dayStart) polls++;
                next++;
            }
            var gap = unwatched.Any(u => u.From < to && u.To > from);
            days.Add(!gap ? new EvidenceDay(day, DayCoverage.Monitored, null, status, polls)
                : polls > 0 ? new EvidenceDay(day, DayCoverage.MonitoredWithGaps, null, status, polls)
                : new EvidenceDay(day, DayCoverage.NotMonitored,
                    storeDays.Contains(day) ? NotMonitoredReason.CollectorSilent : NotMonitoredReason.StoreOutage, status, 0));
        }
        return days;
    }

    /// <summary>The stretches, up to <paramref name="end"/>, in which the latest poll was older than the allowance.</summary>
    static List<(DateTimeOffset From, DateTimeOffset To)> Unwatched(Watch watch, TimeSpan allowance, DateTimeOffset end)
    {
        var stretches = new List<(DateTimeOffset, DateTimeOffset)>();
        // Before its first poll, an instance is watched from its registration: the first poll is due at once.
        var last = watch.PreviousPoll is { } previous && previous > watch.RegisteredAt ? previous : watch.RegisteredAt;
        foreach (var poll in watch.Polls.Where(p => p < end).Append(end))
        {
            if (poll - last > allowance)
                stretches.Add((last + allowance, poll));
            if (poll > last) last = poll;
        }
        return stretches;
    }

    static DateTimeOffset Max(DateTimeOffset a, DateTimeOffset b) => a > b ? a : b;
}
