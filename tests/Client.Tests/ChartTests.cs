using System.Globalization;
using IfiDashboard.Client.Components.Charts;
using IfiDashboard.Client.Tests.TestData;
using IfiDashboard.Shared.Compliance.Summary;

using IfiDashboard.Client.Tests.Rendering;

namespace IfiDashboard.Client.Tests;

public sealed class ChartTests : ComponentTest
{
    [Fact]
    public void Trend_chart_draws_one_labelled_point_per_day()
    {
        var days = Fleets.Days(10);

        var chart = Render<ComplianceTrendChart>(p => p.Add(x => x.Days, days));

        var points = chart.FindAll("circle.trend-point");
        Assert.Equal(days.Select(d => d.Day.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture)), points.Select(p => p.GetAttribute("data-day")));
        Assert.All(points, p => Assert.Contains("compliant", p.QuerySelector("title")!.TextContent, StringComparison.Ordinal));
        Assert.Single(chart.FindAll("polyline.trend-line"));
        Assert.Equal("img", chart.Find("svg").GetAttribute("role"));
        Assert.Contains("10 days", chart.Find("svg desc").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void Trend_chart_points_rise_with_compliance_and_days_are_spaced_by_date()
    {
        var day = new DateOnly(2025, 5, 1);
        DailyCompliance At(int offset, int compliant) => new(day.AddDays(offset), new StatusCounts(compliant, 10 - compliant, 0, 0, 0, 0));

        var chart = Render<ComplianceTrendChart>(p => p.Add(x => x.Days, [At(0, 2), At(1, 5), At(9, 9)]));

        var points = chart.FindAll("circle.trend-point");
        double Cx(int i) => double.Parse(points[i].GetAttribute("cx")!, CultureInfo.InvariantCulture);
        double Cy(int i) => double.Parse(points[i].GetAttribute("cy")!, CultureInfo.InvariantCulture);
        Assert.True(Cy(0) > Cy(1) && Cy(1) > Cy(2), "higher compliance is drawn higher (smaller y)");
        Assert.Equal((Cx(2) - Cx(0)) / 9, Cx(1) - Cx(0), precision: 0);
    }

    [Fact]
    public void Trend_chart_with_one_day_draws_one_point_and_no_line()
    {
        var chart = Render<ComplianceTrendChart>(p => p.Add(x => x.Days, Fleets.Days(1)));

        Assert.Single(chart.FindAll("circle.trend-point"));
        Assert.Empty(chart.FindAll("polyline"));
    }

    [Fact]
    public void Trend_chart_without_days_explains_instead_of_drawing()
    {
        var chart = Render<ComplianceTrendChart>(p => p.Add(x => x.Days, []));

        Assert.Empty(chart.FindAll("svg"));
        Assert.Contains("No daily compliance", chart.Markup, StringComparison.Ordinal);
    }

    [Fact]
    public void Growth_chart_plots_at_most_its_limit_and_says_so()
    {
        var events = Details.SqlFin01(growthEvents: GrowthEventChart.MaxPoints + 10).GrowthEvents;

        var chart = Render<GrowthEventChart>(p => p
            .Add(x => x.Events, events)
            .Add(x => x.From, InstanceSpec.Now.AddDays(-200))
            .Add(x => x.To, InstanceSpec.Now));

        Assert.Equal(GrowthEventChart.MaxPoints, chart.FindAll(".growth-point").Count);
        Assert.Contains("The newest 2,000 of 2,010 events are plotted", chart.Markup, StringComparison.Ordinal);
    }

    [Fact]
    public void Growth_chart_colours_by_zeroing_and_has_a_legend()
    {
        var events = Details.SqlFin01(growthEvents: 4).GrowthEvents;

        var chart = Render<GrowthEventChart>(p => p
            .Add(x => x.Events, events)
            .Add(x => x.From, InstanceSpec.Now.AddDays(-90))
            .Add(x => x.To, InstanceSpec.Now));

        Assert.Equal(3, chart.FindAll(".growth-point.z-lost").Count);
        Assert.Single(chart.FindAll(".growth-point.z-log"));
        Assert.Equal(["Data zeroed without IFI (time lost): 3", "Log zeroed (not avoidable by IFI): 1"],
            chart.FindAll(".legend li").Select(li => li.TextContent));
    }

    [Theory]
    [InlineData(0.0, new double[] { 0, 1 })]
    [InlineData(7.3, new double[] { 0, 2, 4, 6, 8 })]
    [InlineData(100.0, new double[] { 0, 20, 40, 60, 80, 100 })]
    [InlineData(0.42, new double[] { 0, 0.1, 0.2, 0.3, 0.4, 0.5 })]
    public void Ticks_are_round_and_cover_the_maximum(double max, double[] expected)
    {
        var ticks = Ticks.UpTo(max);

        Assert.Equal(expected.Length, ticks.Count);
        for (var i = 0; i < expected.Length; i++) Assert.Equal(expected[i], ticks[i], precision: 9);
    }
}
