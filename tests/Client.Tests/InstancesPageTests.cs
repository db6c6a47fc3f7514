using System.Text;
using System.Text.RegularExpressions;
using AngleSharp.Dom;
using Bunit;
using Bunit.TestDoubles;
using IfiDashboard.Client.Pages.Instances;
using IfiDashboard.Client.Tests.TestData;
using Microsoft.AspNetCore.Components;
using Microsoft.Extensions.DependencyInjection;

using IfiDashboard.Client.Tests.Rendering;
using IfiDashboard.Compliance.Assessment;

namespace IfiDashboard.Client.Tests;

public sealed partial class InstancesPageTests : ComponentTest
{
    // QuickGrid imports its own script module on the first render; its answer plays no part in what these tests check.
    public InstancesPageTests() => JSInterop.Mode = JSRuntimeMode.Loose;

    RenderedPage RenderAt(string query, IFleetAssessments assessments)
    {
        Services.AddSingleton(assessments);
        NavigateTo("instances" + query);
        return Render<InstancesPage>();
    }

    RenderedPage RenderAt(string query, IReadOnlyList<InstanceAssessment>? instances = null) =>
        RenderAt(query, FakeAssessments.Of(Fleets.Of(instances ?? Fleets.Mixed())));

    static List<string> Names(RenderedPage page) =>
        page.FindAll("tbody a[data-instance]").Select(a => a.GetAttribute("data-instance")!).ToList();

    /// <summary>The grid's body rows that hold an instance (QuickGrid fills a short last page with empty rows).</summary>
    static List<IElement> Rows(RenderedPage page) =>
        page.FindAll("tbody tr").Where(r => r.QuerySelector("a[data-instance]") is not null).ToList();

    static List<string> Headers(RenderedPage page) =>
        page.FindAll("thead th").Select(th => th.TextContent.Trim()).ToList();

    static string Squeezed(string text) => Spaces().Replace(text, " ").Trim();

    /// <summary>The address as the page left it, relative to the app ("instances?sort=...").</summary>
    string Address() => Services.GetRequiredService<NavigationManager>() is var navigation
        ? navigation.ToBaseRelativePath(navigation.Uri) : "";

    bool LastAddressReplacedItsEntry() =>
        Services.GetRequiredService<BunitNavigationManager>().History.First().Options.ReplaceHistoryEntry;

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

        AssertReportedWithTraceId(page.Find("[role=alert]").TextContent, "store unavailable");
    }

    [Fact]
    public void Without_parameters_every_instance_is_listed_by_name_with_every_column()
    {
        var page = RenderAt("");

        Assert.Equal(["AZDB01", "SQLDEV01", "SQLDEV02", "SQLFIN01", "SQLFIN02", "SQLGONE", "SQLHR01", "SQLOLD", "SQLPCI01"], Names(page));
        var fin = page.Find("a[data-instance=SQLFIN01]");
        Assert.Equal(("instances/1", "NonCompliant"), (fin.GetAttribute("href"), fin.GetAttribute("data-status")));
        Assert.Equal(["Instance", "Status", "Environment", "Owner", "Tags", "Version", "IFI", "Policy", "Lost, 30 d", "Restore risk", "Last poll (UTC)"],
            Headers(page));
        Assert.Equal("Instances", page.Find("table[data-grid=instances]").GetAttribute("aria-label"));
    }

    [Theory]
    [InlineData("?status=NonCompliant", new[] { "SQLFIN01", "SQLPCI01" })]
    [InlineData("?status=stale", new[] { "SQLDEV01", "SQLGONE" })]
    [InlineData("?env=development", new[] { "SQLDEV01", "SQLDEV02" })]
    [InlineData("?tag=pci", new[] { "SQLFIN01", "SQLPCI01" })]
    [InlineData("?tag=(no%20tag)", new[] { "AZDB01", "SQLDEV01", "SQLDEV02", "SQLGONE", "SQLHR01", "SQLOLD" })]
    [InlineData("?version=16", new[] { "SQLDEV02", "SQLPCI01" })]
    [InlineData("?owner=finance-dba", new[] { "SQLFIN01", "SQLFIN02" })]
    [InlineData("?policy=forbidden", new[] { "SQLPCI01" })]
    [InlineData("?policy=NotApplicable", new[] { "AZDB01" })]
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
    public void The_filter_form_keeps_the_current_choices_and_the_view()
    {
        var page = RenderAt("?status=Waived&env=Test&q=hr&policy=required&sort=restore&cols=name,status");

        Assert.Equal("get", page.Find("form.filters").GetAttribute("method"));
        Assert.True(page.Find("select[name=status] option[value=Waived]").HasAttribute("selected"));
        Assert.True(page.Find("select[name=env] option[value=Test]").HasAttribute("selected"));
        Assert.True(page.Find("select[name=policy] option[value=Required]").HasAttribute("selected"));
        Assert.Equal(["Required", "Forbidden", "NotApplicable"], page.FindAll("select[name=policy] option[value]").Select(o => o.GetAttribute("value")).Where(v => v!.Length > 0));
        Assert.Equal("hr", page.Find("input[name=q]").GetAttribute("value"));
        Assert.Equal("restore", page.Find("form.filters input[name=sort]").GetAttribute("value"));
        Assert.Equal("name,status", page.Find("form.filters input[name=cols]").GetAttribute("value"));
    }

    [Fact]
    public void Sorting_by_time_lost_puts_the_worst_first_and_the_header_says_so()
    {
        var page = RenderAt("?sort=timelost&dir=desc");

        Assert.Equal(["SQLFIN01", "SQLHR01"], Names(page).Take(2));
        var sorted = Assert.Single(page.FindAll("th[aria-sort=descending]"));
        Assert.NotNull(sorted.QuerySelector("button[data-sort=TimeLost]"));
        Assert.Empty(page.FindAll("th[aria-sort=ascending]"));
    }

    [Fact]
    public void A_sort_button_sorts_worst_first_then_reverses_and_keeps_the_address_in_step()
    {
        RenderInteractively();
        var page = RenderAt("?env=Production");

        page.Find("button[data-sort=TimeLost]").Click();

        page.WaitForAssertion(() => Assert.Equal("SQLFIN01", Names(page)[0]));
        Assert.Equal("instances?env=Production&sort=timelost&dir=desc", Address());
        Assert.True(LastAddressReplacedItsEntry());
        Assert.NotNull(page.Find("th[aria-sort=descending] button[data-sort=TimeLost]"));

        page.Find("button[data-sort=TimeLost]").Click();

        page.WaitForAssertion(() => Assert.Equal("instances?env=Production&sort=timelost", Address()));
        Assert.NotEqual("SQLFIN01", Names(page)[0]);
        Assert.NotNull(page.Find("th[aria-sort=ascending] button[data-sort=TimeLost]"));
    }

    [Fact]
    public void Following_a_link_out_of_the_grid_is_not_called_back()
    {
        RenderInteractively();
        var page = RenderAt("?sort=timelost&dir=desc&page=1&cols=status");
        var navigation = Services.GetRequiredService<NavigationManager>();

        navigation.NavigateTo("instances/1");

        page.WaitForAssertion(() => Assert.Equal("instances/1", Address()));
        page.Render(); // whatever the grid renders while it is still on the page
        Assert.Equal("instances/1", Address());
    }

    [Fact]
    public void A_fleet_of_ten_thousand_is_paged()
    {
        var page = RenderAt("", Fleets.Large(10_000));

        Assert.Equal(50, Names(page).Count);
        Assert.Equal("SQL00001", Names(page)[0]);
        Assert.Contains("Page 1 of 200", Squeezed(page.Find(".paginator").TextContent), StringComparison.Ordinal);
        Assert.Contains("Showing 1–50 of 10,000", page.Find("[data-grid-range]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void The_paginator_turns_the_page_and_the_address_follows()
    {
        RenderInteractively();
        var page = RenderAt("?status=NonCompliant&env=Production&page=2", Fleets.Large(10_000));
        // Multiples of 7 that are also multiples of 3: every 21st instance.
        Assert.Equal("476", page.Find("[data-matching]").GetAttribute("data-matching"));
        Assert.Equal("SQL01071", Names(page)[0]);

        page.Find(".paginator .go-next").Click();

        page.WaitForAssertion(() => Assert.Equal("SQL02121", Names(page)[0]));
        Assert.Equal("instances?status=NonCompliant&env=Production&page=3", Address());
        Assert.True(LastAddressReplacedItsEntry());
        Assert.Contains("Showing 101–150 of 476", page.Find("[data-grid-range]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void Sorting_on_a_later_page_starts_again_on_page_one()
    {
        RenderInteractively();
        var page = RenderAt("?page=3", Fleets.Large(10_000));

        page.Find("button[data-sort=Status]").Click();

        page.WaitForAssertion(() => Assert.Equal("instances?sort=status", Address()));
        Assert.Contains("Page 1 of 200", Squeezed(page.Find(".paginator").TextContent), StringComparison.Ordinal);
        Assert.Equal("SQL00007", Names(page)[0]);
    }

    [Fact]
    public void The_last_page_of_a_large_fleet_holds_the_last_rows_and_a_page_past_it_shows_the_last()
    {
        var page = RenderAt("?page=999&size=250", Fleets.Large(10_000));

        Assert.Equal(250, Names(page).Count);
        Assert.Equal("SQL10000", Names(page)[^1]);
        Assert.Contains("Page 40 of 40", Squeezed(page.Find(".paginator").TextContent), StringComparison.Ordinal);
        Assert.Contains("Showing 9,751–10,000", page.Find("[data-grid-range]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void The_address_chooses_the_columns_and_the_name_is_always_shown()
    {
        var page = RenderAt("?cols=status,ifi");

        Assert.Equal(["Instance", "Status", "IFI"], Headers(page));
        Assert.Equal(3, Rows(page)[0].Children.Length);
        var boxes = page.FindAll("[data-column-choice] input[type=checkbox]");
        Assert.Equal(["Name", "Status", "Ifi"], boxes.Where(b => b.HasAttribute("checked")).Select(b => b.GetAttribute("data-column")));
        Assert.True(page.Find("input[data-column=Name]").HasAttribute("disabled"));
        Assert.Contains("3 of 11", page.Find("[data-column-choice] summary").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void Hiding_a_column_takes_it_out_of_the_grid_and_into_the_address_but_not_out_of_the_export()
    {
        RenderInteractively();
        var page = RenderAt("?status=NonCompliant&sort=timelost&dir=desc");

        page.Find("input[data-column=Owner]").Change(false);

        page.WaitForAssertion(() => Assert.DoesNotContain("Owner", Headers(page)));
        Assert.Equal("instances?status=NonCompliant&sort=timelost&dir=desc&cols=name,status,environment,tags,version,ifi,policy,timelost,restore,lastpoll",
            Address());
        Assert.True(LastAddressReplacedItsEntry());
        // The sort survives the new column set.
        Assert.NotNull(page.Find("th[aria-sort=descending] button[data-sort=TimeLost]"));
        Assert.Equal("instances/export.csv?status=NonCompliant&sort=timelost&dir=desc", page.Find("a[data-export=csv]").GetAttribute("href"));

        page.Find("input[data-column=Owner]").Change(true);

        page.WaitForAssertion(() => Assert.Equal("instances?status=NonCompliant&sort=timelost&dir=desc", Address()));
        Assert.Contains("Owner", Headers(page));
    }

    [Fact]
    public void The_address_the_grid_leaves_reopens_the_same_view()
    {
        RenderInteractively();
        var page = RenderAt("?env=Production&size=25&cols=status,timelost", Fleets.Large(400));
        page.Find("button[data-sort=TimeLost]").Click();
        page.WaitForAssertion(() => Assert.Contains("sort=timelost", Address(), StringComparison.Ordinal));
        page.Find(".paginator .go-next").Click();
        page.WaitForAssertion(() => Assert.Contains("page=2", Address(), StringComparison.Ordinal));
        var (names, headers, range) = (Names(page), Headers(page), page.Find("[data-grid-range]").TextContent);

        using var reopened = new ReopenedPage(Address(), Fleets.Large(400));
        var again = reopened.Page;

        Assert.Equal(names, Names(again));
        Assert.Equal(headers, Headers(again));
        Assert.Equal(range, again.Find("[data-grid-range]").TextContent);
        Assert.NotNull(again.Find("th[aria-sort=descending] button[data-sort=TimeLost]"));
    }

    /// <summary>A second page, rendered as the server renders a pasted address (prerendered, static).</summary>
    sealed class ReopenedPage : ComponentTest
    {
        public ReopenedPage(string address, IReadOnlyList<InstanceAssessment> fleet)
        {
            JSInterop.Mode = JSRuntimeMode.Loose;
            Services.AddSingleton<IFleetAssessments>(FakeAssessments.Of(Fleets.Of(fleet)));
            NavigateTo(address);
            Page = Render<InstancesPage>();
        }

        public RenderedPage Page { get; }
    }

    [Fact]
    public void The_csv_export_is_the_whole_view_every_page_in_its_order()
    {
        var fleet = Fleets.Of(Fleets.Large(200));
        var page = RenderAt("?env=Production&sort=name&dir=desc&size=25&page=2&cols=status", FakeAssessments.Of(fleet));

        var link = page.Find("a[data-export=csv]");
        Assert.Equal("instances.csv", link.GetAttribute("download"));
        Assert.Equal("instances/export.csv?env=Production&sort=name&dir=desc", link.GetAttribute("href"));
        Assert.Contains("every column", page.Find(".grid-meta").TextContent, StringComparison.Ordinal);
        // What the export endpoint serves for that address (tests/Server.Tests has it over HTTP).
        var view = InstanceQuery.Parse(key => key switch { InstanceQuery.EnvironmentKey => "Production", InstanceQuery.SortKey => "name", InstanceQuery.DirectionKey => "desc", _ => null });
        var lines = Encoding.UTF8.GetString(InstanceCsv.Utf8File(GridSource.For(fleet).Matching(view), new Dictionary<long, DateTimeOffset>())).TrimStart('\uFEFF')
            .Split("\r\n", StringSplitOptions.RemoveEmptyEntries);
        var matching = int.Parse(page.Find("[data-matching]").GetAttribute("data-matching")!, System.Globalization.CultureInfo.InvariantCulture);
        var shown = Rows(page);
        Assert.Equal(string.Join(',', InstanceCsv.Header), lines[0]);
        Assert.Equal(matching + 1, lines.Length);
        Assert.True(matching > 2 * 25, $"only {matching} match");
        Assert.Equal(25, shown.Count);
        for (var i = 0; i < shown.Count; i++) // page 2 is rows 26 to 50 of the file
        {
            var cells = lines[25 + i + 1].Split(',');
            Assert.Equal(shown[i].QuerySelector("a[data-instance]")!.GetAttribute("data-instance"), cells[0]);
            Assert.Equal(shown[i].QuerySelector("td.status")!.TextContent.Trim().Replace("stale", "(stale)"), cells[1]);
            Assert.Equal("Production", cells[2]);
        }
    }

    [Fact]
    public async Task Interactive_the_grid_follows_a_new_assessment_and_keeps_its_view()
    {
        var assessments = FakeAssessments.Of(Fleets.Of(Fleets.Mixed()));
        RenderInteractively();
        var page = RenderAt("?status=NonCompliant&cols=status", assessments);
        page.Find("button[data-sort=Status]").Click();
        page.WaitForAssertion(() => Assert.Equal("instances?status=NonCompliant&sort=status&cols=name,status", Address()));
        Assert.Equal(["SQLFIN01", "SQLPCI01"], Names(page));

        await assessments.LandAsync(Fleets.Of(Fleets.MixedAfterSqlFin01Fixed()));

        page.WaitForAssertion(() => Assert.Equal(["SQLPCI01"], Names(page)));
        Assert.Equal("NonCompliant", page.Find("select[name=status] option[selected]").GetAttribute("value"));
        Assert.Equal(["Instance", "Status"], Headers(page));
        Assert.NotNull(page.Find("th[aria-sort=ascending] button[data-sort=Status]"));
        Assert.Equal("instances?status=NonCompliant&sort=status&cols=name,status", Address());
    }

    [Fact]
    public void The_IFI_badge_shows_the_observed_value_in_the_colour_of_compliance()
    {
        var page = RenderAt("");

        // IFI is on in both rows; only where policy forbids it is that bad news.
        var forbidden = Rows(page).Single(r => r.QuerySelector("a[data-instance=SQLPCI01]") is not null).QuerySelector("[data-ifi-state]")!;
        var required = Rows(page).Single(r => r.QuerySelector("a[data-instance=SQLFIN02]") is not null).QuerySelector("[data-ifi-state]")!;
        Assert.Equal(("Enabled", "Enabled"), (forbidden.TextContent, required.TextContent));
        Assert.True(forbidden.ClassList.Contains("st-bad"), forbidden.ClassName);
        Assert.True(required.ClassList.Contains("st-ok"), required.ClassName);
    }

    [GeneratedRegex(@"\s+")]
    private static partial Regex Spaces();
}
