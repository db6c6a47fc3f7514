using System.Globalization;
using AngleSharp.Dom;
using AngleSharp.Html.Parser;
using IfiDashboard.Collector.Probes;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// The instance page's growth explorer on growth events read from a simulated instance's default trace over TCP: the
/// chart's points and the table's rows are the same events with the same figures.
/// </summary>
public sealed class GrowthExplorerTests
{
    const string Name = "sales-ifi-lost";
    static readonly DateTimeOffset Now = DateTimeOffset.UtcNow;

    // A growth every three hours for nine days, every third one of the log, durations spread over two orders of magnitude.
    static ScenarioInstance Instance() => new()
    {
        Name = Name, Profile = "2019", IfiEnabled = true, LastStartupTime = Now.AddDays(-10),
        Databases = [new ScenarioDatabase { Name = "Sales", Id = 5, Files =
        [
            new ScenarioDatabaseFile { Name = "Sales", PhysicalName = @"D:\Data\Sales.mdf", SizePages = 1_310_720, Growth = 8192 },
            new ScenarioDatabaseFile { Name = "Sales_log", PhysicalName = @"L:\Log\Sales.ldf", Type = DatabaseFileType.Log, SizePages = 65_536, Growth = 8192 },
        ] }],
        GrowthEvents = [.. Enumerable.Range(1, 72).Select(i => new ScenarioGrowthEvent
        {
            EventClass = i % 3 == 0 ? 93 : 92, Database = "Sales", FileName = i % 3 == 0 ? "Sales_log" : "Sales",
            StartTime = Now.AddHours(-3 * i), DurationMicroseconds = 20_000 + i * i * 1_500, GrowthPages = 8192 * (1 + i % 4),
        })],
    };

    sealed record Growth(string Series, string Start, long Microseconds, long Bytes);

    static Growth Read(IElement element) => new(element.GetAttribute("data-series")!, element.GetAttribute("data-start")!,
        long.Parse(element.GetAttribute("data-duration-us")!, CultureInfo.InvariantCulture),
        long.Parse(element.GetAttribute("data-bytes")!, CultureInfo.InvariantCulture));

    [Fact]
    public async Task The_chart_plots_exactly_the_growths_the_table_lists()
    {
        await using var host = new DashboardHost(Instance());
        await host.RegisterFleetAsync();
        // A poll five days ago saw IFI on in the service run started ten days ago: this one, dated back, with the
        // growths the trace held then.
        var registration = (await host.Services.GetRequiredService<InstanceInventory>().ListActiveAsync(CancellationToken.None)).Single();
        var earlier = await ActivatorUtilities.CreateInstance<InstanceProber>(host.Services, new GrowthWatermarks()).PollAsync(registration, CancellationToken.None);
        var fiveDaysAgo = Now.AddDays(-5);
        await host.Services.GetRequiredService<ISnapshotSink>().WriteAsync(earlier with
        {
            StartedAt = fiveDaysAgo, FinishedAt = fiveDaysAgo.AddSeconds(1),
            GrowthEvents = [.. earlier.GrowthEvents.Where(e => e.StartTime < fiveDaysAgo)],
        }, CancellationToken.None);
        // Four days ago the service restarted without the privilege: growths since then had no IFI.
        host.Fleet.Update(Name, i => { i.IfiEnabled = false; i.LastStartupTime = Now.AddDays(-4); });
        await host.PollAllAsync();
        await host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
        var client = host.CreateClient();
        var parser = new HtmlParser();

        var page = parser.ParseDocument(await client.GetStringAsync($"/instances/{host.IdOf(Name)}?growth=all"));
        var points = page.QuerySelectorAll("[data-chart=growth] .growth-point").Select(Read).ToList();
        var legend = page.QuerySelectorAll("[data-chart=growth] .legend li").ToList();
        var rows = new List<Growth>();
        for (var table = page; ;)
        {
            rows.AddRange(table.QuerySelectorAll("[data-table=growth] tbody tr").Select(Read));
            var next = table.QuerySelector(".pager a[rel=next]")?.GetAttribute("href");
            if (next is null) break;
            table = parser.ParseDocument(await client.GetStringAsync("/" + next));
        }

        Assert.Equal(72, points.Count);
        Assert.True(rows.Count > 50, "the table is paged: every page is read");
        Assert.Equal(rows.Count, points.Count);
        Assert.Equal(rows.Max(r => r.Microseconds), points.Max(p => p.Microseconds));
        // The IFI flag at each growth's time, from the two polls: on until the earlier poll, off since (between the poll
        // and the restart the polls disagree, and today's state stands in).
        Assert.Equal(["data-off", "data-on", "log-off", "log-on"], legend.Select(li => li.GetAttribute("data-series")));
        foreach (var series in legend)
        {
            var name = series.GetAttribute("data-series");
            var (plotted, listed) = (points.Where(p => p.Series == name).ToList(), rows.Where(r => r.Series == name).ToList());
            Assert.Equal(listed.Count, plotted.Count);
            Assert.Equal(listed.Count.ToString(CultureInfo.InvariantCulture), series.GetAttribute("data-count"));
            Assert.Equal(listed.Sum(r => r.Microseconds), plotted.Sum(p => p.Microseconds));
            Assert.Equal(listed.Sum(r => r.Microseconds).ToString(CultureInfo.InvariantCulture), series.GetAttribute("data-duration-us"));
            Assert.Equal(listed.Max(r => r.Microseconds).ToString(CultureInfo.InvariantCulture), series.GetAttribute("data-max-duration-us"));
            Assert.Equal(listed.Sum(r => r.Bytes), plotted.Sum(p => p.Bytes));
        }
        Assert.Equal(rows.OrderBy(r => r.Start, StringComparer.Ordinal), points.OrderBy(p => p.Start, StringComparer.Ordinal));
        Assert.All(points.Where(p => p.Series.EndsWith("-off", StringComparison.Ordinal)),
            p => Assert.True(DateTimeOffset.Parse(p.Start, CultureInfo.InvariantCulture) > fiveDaysAgo, $"{p.Start} had IFI off"));
    }
}
