using IfiDashboard.Compliance.Facts;

namespace IfiDashboard.Compliance.Zeroing;

public static class ZeroingReportBuilder
{
    /// <summary>Counts growth events that started in [from, to): the start is inclusive and the end exclusive.</summary>
    public static ZeroingReport Build(IEnumerable<InstanceFactSet> fleet, DateTimeOffset from, DateTimeOffset to) =>
        Combine(from, to, fleet.Select(set => BuildInstance(set, from, to)).ToList());

    /// <summary>One instance's part of a report, so a large fleet can be assessed one instance at a time.</summary>
    public static InstanceZeroing BuildInstance(InstanceFactSet set, DateTimeOffset from, DateTimeOffset to) =>
        InstanceZeroingWindows.Build(set.Instance, GrowthEventAssessor.AssessAll(set), [new ZeroingWindow(from, to)])[0];

    /// <summary>A fleet report from instance parts built with <see cref="BuildInstance"/> for the same window.</summary>
    public static ZeroingReport Combine(DateTimeOffset from, DateTimeOffset to, IReadOnlyList<InstanceZeroing> instances) =>
        new(from, to, instances.Aggregate(new ZeroingTotals(), (sum, i) => sum.Plus(i.Totals)), instances);
}
