using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Summary;

namespace IfiDashboard.Compliance.Tests;

public class DailyComplianceSeriesTests
{
    static readonly DateOnly May1 = new(2025, 5, 1);
    static readonly DateOnly May2 = new(2025, 5, 2);

    [Fact]
    public void Series_counts_each_day_in_order()
    {
        var series = DailyComplianceSeries.Build(
        [
            new(May2, 1, ComplianceStatus.Compliant),
            new(May1, 1, ComplianceStatus.NonCompliant),
            new(May1, 2, ComplianceStatus.Compliant),
            new(May2, 2, ComplianceStatus.Compliant),
            new(May2, 3, ComplianceStatus.Waived),
        ]);

        Assert.Equal([May1, May2], series.Select(d => d.Day));
        Assert.Equal(50.0, series[0].Counts.CompliancePercent);
        Assert.Equal(new StatusCounts(2, 0, 1, 0, 0, 0), series[1].Counts);
    }

    [Fact]
    public void Instance_recorded_twice_on_a_day_counts_once_with_its_worst_status()
    {
        var series = DailyComplianceSeries.Build(
        [
            new(May1, 1, ComplianceStatus.NonCompliant),
            new(May1, 1, ComplianceStatus.Compliant),
            new(May1, 2, ComplianceStatus.Compliant),
            new(May1, 2, ComplianceStatus.Unknown),
        ]);

        Assert.Equal(new StatusCounts(0, 1, 0, 1, 0, 0), series.Single().Counts);
    }
}
