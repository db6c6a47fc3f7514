using IfiDashboard.Compliance.Status;

namespace IfiDashboard.Compliance.Summary;

/// <summary>One instance's status as recorded on one day.</summary>
public sealed record DailyStatus(DateOnly Day, long InstanceId, ComplianceStatus Status);

public sealed record DailyCompliance(DateOnly Day, StatusCounts Counts);

public static class DailyComplianceSeries
{
    /// <summary>
    /// Counts per day, oldest first, for the days that have entries. An instance recorded more than once on a day
    /// counts once, with its worst status of the day: a morning outage must not vanish behind an evening recovery.
    /// </summary>
    public static IReadOnlyList<DailyCompliance> Build(IEnumerable<DailyStatus> entries) =>
        entries
            .GroupBy(e => e.Day)
            .OrderBy(g => g.Key)
            .Select(day => new DailyCompliance(day.Key, day
                .GroupBy(e => e.InstanceId)
                .Select(instance => instance.MaxBy(e => Badness(e.Status))!.Status)
                .Aggregate(StatusCounts.Zero, (counts, status) => counts.Add(status, isStale: false))))
            .ToList();

    /// <summary>
    /// The series with today's point counted as the current assessment counts the fleet, so the trend ends on the
    /// figure the tiles beside it show (the stored day keeps each instance's worst status since midnight, which is
    /// what the day becomes once it is over). Without a point for today (nothing polled yet) the series is unchanged.
    /// </summary>
    public static IReadOnlyList<DailyCompliance> EndingWithNow(IReadOnlyList<DailyCompliance> days, DateOnly today, StatusCounts now) =>
        days.Any(d => d.Day == today) ? [.. days.Where(d => d.Day != today), new DailyCompliance(today, now)] : days;

    /// <summary>Worst first: NonCompliant, Unknown, Waived, Compliant, NotApplicable.</summary>
    public static int Badness(ComplianceStatus status) => status switch
    {
        ComplianceStatus.NonCompliant => 4,
        ComplianceStatus.Unknown => 3,
        ComplianceStatus.Waived => 2,
        ComplianceStatus.Compliant => 1,
        _ => 0,
    };
}
