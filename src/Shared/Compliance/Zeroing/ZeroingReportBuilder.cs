using IfiDashboard.Shared.Compliance.Facts;

namespace IfiDashboard.Shared.Compliance.Zeroing;

public static class ZeroingReportBuilder
{
    /// <summary>Counts growth events that started in [from, to): the start is inclusive and the end exclusive.</summary>
    public static ZeroingReport Build(IEnumerable<InstanceFactSet> fleet, DateTimeOffset from, DateTimeOffset to)
    {
        var instances = fleet.Select(set => ForInstance(set, from, to)).ToList();
        var all = instances.SelectMany(i => i.Assessments);
        return new ZeroingReport(from, to, ZeroingTotals.Of(all), instances.Select(i => i.Report).ToList());
    }

    /// <summary>One instance's part of a report, so a large fleet can be assessed one instance at a time.</summary>
    public static InstanceZeroing BuildInstance(InstanceFactSet set, DateTimeOffset from, DateTimeOffset to) =>
        ForInstance(set, from, to).Report;

    /// <summary>A fleet report from instance parts built with <see cref="BuildInstance"/> for the same window.</summary>
    public static ZeroingReport Combine(DateTimeOffset from, DateTimeOffset to, IReadOnlyList<InstanceZeroing> instances) =>
        new(from, to, instances.Aggregate(new ZeroingTotals(), (sum, i) => sum.Plus(i.Totals)), instances);

    static (InstanceZeroing Report, IReadOnlyList<GrowthEventAssessment> Assessments) ForInstance(
        InstanceFactSet set, DateTimeOffset from, DateTimeOffset to)
    {
        var inWindow = set with
        {
            GrowthEvents = set.GrowthEvents.Where(e => from <= e.StartTime && e.StartTime < to).ToList(),
        };
        var assessments = GrowthEventAssessor.AssessAll(inWindow);
        var databases = assessments
            .GroupBy(a => a.Event.DatabaseId)
            .Select(g => new DatabaseZeroing(g.Key, LatestName(g), ZeroingTotals.Of(g)))
            .OrderByDescending(d => d.Totals.TimeLostMicroseconds)
            .ThenBy(d => d.DatabaseName, StringComparer.OrdinalIgnoreCase)
            .ToList();
        var report = new InstanceZeroing(set.Instance.InstanceId, set.Instance.Name, ZeroingTotals.Of(assessments), databases);
        return (report, assessments);
    }

    // A database keeps its id across a rename; show the name it had most recently.
    static string LatestName(IEnumerable<GrowthEventAssessment> events) =>
        events.MaxBy(a => a.Event.StartTime)!.Event.DatabaseName;
}
