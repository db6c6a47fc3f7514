using System.Globalization;
using IfiDashboard.Client.Components.Charts;
using IfiDashboard.Client.Tests.TestData;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Summary;

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

    static GrowthHistory History(int growthEvents, GrowthWindow window = GrowthWindow.AllKept) =>
        GrowthHistory.Of(window, InstanceSpec.Now, Details.SqlFin01(growthEvents).Growth.Events);

    static long Microseconds(AngleSharp.Dom.IElement element, string attribute = "data-duration-us") =>
        long.Parse(element.GetAttribute(attribute)!, CultureInfo.InvariantCulture);

    [Fact]
    public void Growth_chart_plots_at_most_its_limit_and_says_so()
    {
        var chart = Render<GrowthEventChart>(p => p.Add(x => x.History, History(GrowthEventChart.MaxPoints + 10)));

        Assert.Equal(GrowthEventChart.MaxPoints, chart.FindAll(".growth-point").Count);
        Assert.Contains("The newest 2,000 of 2,010 events are plotted", chart.Markup, StringComparison.Ordinal);
    }

    [Fact]
    public void Growth_chart_draws_data_as_circles_and_log_as_squares_filled_by_ifi_at_the_time()
    {
        // 24 growths over a week: IFI was lost at the restart five days ago, so the older ones had it.
        var chart = Render<GrowthEventChart>(p => p.Add(x => x.History, History(24)));

        int Count(string selector) => chart.FindAll(selector).Count;
        Assert.Equal(24, Count(".growth-point"));
        Assert.Equal(Count("circle.growth-point"), Count("circle.growth-point[data-series^=data-]"));
        Assert.Equal(Count("rect.growth-point"), Count("rect.growth-point[data-series^=log-]"));
        Assert.Equal(Count(".growth-point.ifi-off"), Count(".growth-point[data-series$=-off]"));
        Assert.Equal(Count(".growth-point.ifi-on"), Count(".growth-point[data-series$=-on]"));
        Assert.All(chart.FindAll(".growth-point.ifi-on"), p => Assert.True(
            DateTimeOffset.Parse(p.GetAttribute("data-start")!, CultureInfo.InvariantCulture) < Details.Restart, "IFI on only before the restart"));
        Assert.Equal([13, 4, 5, 2],
            new[] { "circle.growth-point.ifi-off", "rect.growth-point.ifi-off", "circle.growth-point.ifi-on", "rect.growth-point.ifi-on" }.Select(Count));
    }

    [Fact]
    public void Growth_chart_legend_sums_its_points_per_kind_and_ifi()
    {
        var chart = Render<GrowthEventChart>(p => p.Add(x => x.History, History(24)));

        var points = chart.FindAll(".growth-point").GroupBy(p => p.GetAttribute("data-series")!).ToDictionary(g => g.Key, g => g.ToList());
        var legend = chart.FindAll(".legend li");
        Assert.Equal(["data-off", "data-on", "log-off", "log-on"], legend.Select(li => li.GetAttribute("data-series")));
        Assert.All(legend, li =>
        {
            var series = points[li.GetAttribute("data-series")!];
            Assert.Equal(series.Count.ToString(CultureInfo.InvariantCulture), li.GetAttribute("data-count"));
            Assert.Equal(series.Sum(p => Microseconds(p)), Microseconds(li));
            Assert.Equal(series.Max(p => Microseconds(p)), Microseconds(li, "data-max-duration-us"));
        });
        Assert.StartsWith("Data file, IFI off: 13 · ", legend[0].TextContent.Trim(), StringComparison.Ordinal);
        // The legend's marks are drawn as the points are, and are not points themselves.
        Assert.NotNull(legend[0].QuerySelector("svg[aria-hidden=true] circle.ifi-off"));
        Assert.NotNull(legend[3].QuerySelector("svg[aria-hidden=true] rect.ifi-on"));
    }

    [Fact]
    public void Growth_point_hover_names_time_database_file_size_duration_and_ifi()
    {
        var chart = Render<GrowthEventChart>(p => p.Add(x => x.History, History(24)));

        var newest = chart.FindAll(".growth-point").MaxBy(p => p.GetAttribute("data-start"))!;
        Assert.Equal("2025-05-08 06:00 UTC · Finance / Finance (data) · +64 MB in 0.8 s · IFI off (assumed: today's state) · Data zeroed without IFI (time lost)",
            newest.QuerySelector("title")!.TextContent);
        var log = chart.FindAll("rect.growth-point.ifi-on")[0];
        Assert.Matches(@"^\d{4}-\d\d-\d\d \d\d:\d\d UTC · Finance / Finance_log \(log\) · \+64 MB in .+ · IFI on · Log zeroed", log.QuerySelector("title")!.TextContent);
    }

    [Fact]
    public void Growth_chart_of_a_day_labels_its_axis_by_the_hour()
    {
        var chart = Render<GrowthEventChart>(p => p.Add(x => x.History, History(24, GrowthWindow.Day)));

        Assert.Equal(4, chart.FindAll(".growth-point").Count);
        Assert.All(chart.FindAll("text.axis-label").Select(t => t.TextContent).Where(t => !t.EndsWith(" s", StringComparison.Ordinal)),
            label => Assert.Matches(@"^\d\d:\d\d$", label));
    }

    [Fact]
    public void Growth_chart_of_an_empty_window_says_so_instead_of_drawing()
    {
        var chart = Render<GrowthEventChart>(p => p.Add(x => x.History, History(0)));

        Assert.Empty(chart.FindAll("svg"));
        Assert.Equal("No growth in this window.", chart.Find("[data-growth-empty]").TextContent);
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
