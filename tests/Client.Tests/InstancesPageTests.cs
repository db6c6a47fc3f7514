using System.Text;
using IfiDashboard.Client.Pages.Instances;
using IfiDashboard.Client.Tests.TestData;
using IfiDashboard.Shared.Dashboard;
using Microsoft.Extensions.DependencyInjection;

using IfiDashboard.Client.Tests.Rendering;

namespace IfiDashboard.Client.Tests;

public sealed class InstancesPageTests : ComponentTest
{
    RenderedPage RenderAt(string query, IFleetAssessments assessments)
    {
        Services.AddSingleton(assessments);
        NavigateTo("instances" + query);
        return Render<InstancesPage>();
    }

    RenderedPage RenderAt(string query, IReadOnlyList<InstanceAssessment>? instances = null) =>
        RenderAt(query, FakeAssessments.Of(Fleets.Of(instances ?? Fleets.Mixed())));

    static List<string> Names(RenderedPage page) =>
        page.FindAll("tbody tr[data-instance]").Select(r => r.GetAttribute("data-instance")!).ToList();

    [Fact]
    public void Empty_fleet_says_no_instance_is_registered()
    {
        var page = RenderAt("", []);

        Assert.Contains("No instances are registered yet.", page.Markup, StringComparison.Ordinal);
        Assert.Empty(page.FindAll("table"));
    }

    [Fact]
    public void Loading_and_failure_each_say_so()
    {
        var loading = RenderAt("", FakeAssessments.Pending());
        Assert.Equal("true", loading.Find(".loading").GetAttribute("aria-busy"));
    }

    [Fact]
    public void A_failing_read_model_is_reported_as_an_alert()
    {
        var page = RenderAt("", FakeAssessments.Failing("store unavailable"));

        Assert.Contains("store unavailable", page.Find("[role=alert]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void Without_parameters_every_instance_is_listed_by_name()
    {
        var page = RenderAt("");

        Assert.Equal(["AZDB01", "SQLDEV01", "SQLDEV02", "SQLFIN01", "SQLFIN02", "SQLGONE", "SQLHR01", "SQLOLD", "SQLPCI01"], Names(page));
        Assert.Equal("instances/1", page.Find("tr[data-instance=SQLFIN01] a").GetAttribute("href"));
    }

    [Theory]
    [InlineData("?status=NonCompliant", new[] { "SQLFIN01", "SQLPCI01" })]
    [InlineData("?status=stale", new[] { "SQLDEV01", "SQLGONE" })]
    [InlineData("?env=development", new[] { "SQLDEV01", "SQLDEV02" })]
    [InlineData("?tag=pci", new[] { "SQLFIN01", "SQLPCI01" })]
    [InlineData("?tag=(no%20tag)", new[] { "AZDB01", "SQLDEV01", "SQLDEV02", "SQLGONE", "SQLHR01", "SQLOLD" })]
    [InlineData("?version=16", new[] { "SQLDEV02", "SQLPCI01" })]
    [InlineData("?owner=finance-dba", new[] { "SQLFIN01", "SQLFIN02" })]
    [InlineData("?q=build%20too", new[] { "SQLOLD" })]
    [InlineData("?status=Compliant&env=Development", new[] { "SQLDEV01", "SQLDEV02" })]
    public void Filters_narrow_the_grid(string query, string[] expected)
    {
        var page = RenderAt(query);

        Assert.Equal(expected, Names(page));
        Assert.Equal(expected.Length.ToString(), page.Find("[data-matching]").GetAttribute("data-matching"));
    }

    [Fact]
    public void Filters_that_match_nothing_say_so_and_offer_to_clear()
    {
        var page = RenderAt("?env=Production&status=Waived");

        Assert.Contains("No instance matches these filters.", page.Markup, StringComparison.Ordinal);
        Assert.Equal("instances", page.Find(".empty a").GetAttribute("href"));
    }

    [Fact]
    public void The_filter_form_keeps_the_current_choices()
    {
        var page = RenderAt("?status=Waived&env=Test&q=hr");

        Assert.Equal("get", page.Find("form.filters").GetAttribute("method"));
        Assert.True(page.Find("select[name=status] option[value=Waived]").HasAttribute("selected"));
        Assert.True(page.Find("select[name=env] option[value=Test]").HasAttribute("selected"));
        Assert.Equal("hr", page.Find("input[name=q]").GetAttribute("value"));
    }

    [Fact]
    public void Sorting_by_time_lost_puts_the_worst_first_and_links_reverse_it()
    {
        var page = RenderAt("?sort=timelost&dir=desc");

        Assert.Equal(["SQLFIN01", "SQLHR01"], Names(page).Take(2));
        var header = page.Find("th[aria-sort]");
        Assert.Equal("descending", header.GetAttribute("aria-sort"));
        Assert.Equal("instances?sort=timelost", header.QuerySelector("a")!.GetAttribute("href"));
    }

    [Fact]
    public void Sorting_keeps_the_filters()
    {
        var page = RenderAt("?env=Development");

        Assert.Equal("instances?env=Development&sort=status", page.Find("a[data-sort=Status]").GetAttribute("href"));
    }

    [Fact]
    public void A_fleet_of_ten_thousand_is_paged()
    {
        var fleet = Fleets.Large(10_000);

        var first = RenderAt("", fleet);

        Assert.Equal(50, Names(first).Count);
        Assert.Equal("SQL00001", Names(first)[0]);
        Assert.Contains("Page 1 of 200", first.Find(".pager").TextContent, StringComparison.Ordinal);
        Assert.Equal("instances?page=2", first.Find(".pager a[rel=next]").GetAttribute("href"));
        Assert.Equal("instances?page=200", first.Find(".pager a[rel=last]").GetAttribute("href"));
    }

    [Fact]
    public void The_last_page_of_a_large_fleet_holds_the_last_rows_and_a_page_past_it_shows_the_last()
    {
        var fleet = Fleets.Large(10_000);

        var page = RenderAt("?page=999&size=250", fleet);

        Assert.Equal(250, Names(page).Count);
        Assert.Equal("SQL10000", Names(page)[^1]);
        Assert.Contains("Page 40 of 40", page.Find(".pager").TextContent, StringComparison.Ordinal);
        Assert.Contains("Showing 9,751–10,000", page.Find("[data-grid-range]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void Filtered_pages_of_a_large_fleet_count_only_the_matches()
    {
        var page = RenderAt("?status=NonCompliant&env=Production&page=2", Fleets.Large(10_000));

        // Multiples of 7 that are also multiples of 3: every 21st instance.
        Assert.Equal("476", page.Find("[data-matching]").GetAttribute("data-matching"));
        Assert.Equal("SQL01071", Names(page)[0]);
        Assert.Equal("instances?status=NonCompliant&env=Production&page=3", page.Find(".pager a[rel=next]").GetAttribute("href"));
    }

    [Fact]
    public void The_csv_export_is_the_whole_view_every_page_in_its_order()
    {
        var fleet = Fleets.Of(Fleets.Large(200));
        var page = RenderAt("?env=Production&sort=name&dir=desc&size=25&page=2", FakeAssessments.Of(fleet));

        var link = page.Find("a[data-export=csv]");
        Assert.Equal("instances.csv", link.GetAttribute("download"));
        Assert.Equal("instances/export.csv?env=Production&sort=name&dir=desc", link.GetAttribute("href"));
        // What the export endpoint serves for that address (tests/Server.Tests has it over HTTP).
        var view = InstanceQuery.Parse(null, "Production", null, null, null, null, "name", "desc", null, null);
        var lines = Encoding.UTF8.GetString(InstanceCsv.Utf8File(GridSource.For(fleet).Matching(view), new Dictionary<long, DateTimeOffset>())).TrimStart('\uFEFF')
            .Split("\r\n", StringSplitOptions.RemoveEmptyEntries);
        var matching = int.Parse(page.Find("[data-matching]").GetAttribute("data-matching")!, System.Globalization.CultureInfo.InvariantCulture);
        var shown = page.FindAll("tbody tr[data-instance]");
        Assert.Equal(string.Join(',', InstanceCsv.Header), lines[0]);
        Assert.Equal(matching + 1, lines.Length);
        Assert.True(matching > 2 * 25, $"only {matching} match");
        for (var i = 0; i < shown.Count; i++) // page 2 is rows 26 to 50 of the file
        {
            var cells = lines[25 + i + 1].Split(',');
            Assert.Equal(shown[i].GetAttribute("data-instance"), cells[0]);
            Assert.Equal(shown[i].Children[1].TextContent.Trim().Replace("stale", "(stale)"), cells[1]);
            Assert.Equal(shown[i].Children[2].TextContent, cells[2]);
        }
    }

    [Fact]
    public async Task Interactive_the_grid_follows_a_new_assessment_and_keeps_its_filter()
    {
        var assessments = FakeAssessments.Of(Fleets.Of(Fleets.Mixed()));
        RenderInteractively();
        var page = RenderAt("?status=NonCompliant", assessments);
        Assert.Equal(["SQLFIN01", "SQLPCI01"], Names(page));

        await assessments.LandAsync(Fleets.Of(Fleets.MixedAfterSqlFin01Fixed()));

        page.WaitForAssertion(() => Assert.Equal(["SQLPCI01"], Names(page)));
        Assert.Equal("NonCompliant", page.Find("select[name=status] option[selected]").GetAttribute("value"));
    }

    [Fact]
    public void The_IFI_badge_shows_the_observed_value_in_the_colour_of_compliance()
    {
        var page = RenderAt("");

        // IFI is on in both rows; only where policy forbids it is that bad news.
        var forbidden = page.Find("tr[data-instance=SQLPCI01] [data-ifi-state]");
        var required = page.Find("tr[data-instance=SQLFIN02] [data-ifi-state]");
        Assert.Equal(("Enabled", "Enabled"), (forbidden.TextContent, required.TextContent));
        Assert.True(forbidden.ClassList.Contains("st-bad"), forbidden.ClassName);
        Assert.True(required.ClassList.Contains("st-ok"), required.ClassName);
    }
}
