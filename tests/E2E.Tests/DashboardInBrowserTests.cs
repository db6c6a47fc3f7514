using IfiDashboard.Client.Pages.Instances;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Extensions.DependencyInjection;
using OpenQA.Selenium;

namespace IfiDashboard.E2E.Tests;

/// <summary>The dashboard against the demo fleet, as a DBA's browser sees it.</summary>
[Collection(DemoCollection.Name)]
public sealed class DashboardInBrowserTests(DemoFixture demo)
{
    Browser Browser => demo.Browser;
    string Url(string path) => demo.Server.BaseUrl + path;

    IReadOnlyList<string> GridHeaders() => Browser.Texts("table[data-grid=instances] thead th").Select(t => t?.Trim() ?? "").ToList();

    static int Number(string text) => int.Parse(text.Replace(",", ""), System.Globalization.CultureInfo.InvariantCulture);

    [Fact]
    public void Overview_shows_the_polled_demo_fleet_in_real_numbers()
    {
        Browser.Open(Url(""));
        Browser.WaitFor("[data-count=Compliant]");

        var statuses = new[] { "Compliant", "NonCompliant", "Waived", "Unknown", "NotApplicable" };
        var counts = statuses.ToDictionary(s => s, s => Number(Browser.Text($"[data-count={s}] .tile-value")));
        Assert.Equal(demo.Server.InstanceCount, counts.Values.Sum());
        Assert.True(counts["Compliant"] > 0 && counts["NonCompliant"] > 0 && counts["Unknown"] > 0, string.Join(", ", counts));
        Assert.Empty(Browser.All("[data-progress]"));
        Assert.NotEqual("never", Browser.Text("[data-last-poll]"));
        Assert.NotEmpty(Browser.All("[data-chart=trend] circle.trend-point"));
        Assert.NotEmpty(Browser.All("[data-fix-first] li"));
        Browser.Screenshot("overview");
    }

    [Fact]
    public void A_status_filter_narrows_the_grid()
    {
        Browser.Open(Url("instances"));
        Browser.WaitFor("table[data-grid]");
        var all = Browser.Attributes("tbody a[data-instance]", "data-status").Count;
        Browser.Screenshot("instances");
        // The circuit's first render replaces the prerendered grid and its filters: a field found before it goes stale.
        Browser.WaitFor("[data-live-indicator]");

        // By keyboard, as a person without a mouse would (clicking an <option> opens a native popup headless Chromium can hang on).
        Browser.Driver.FindElement(By.CssSelector("select[name=status]")).SendKeys("Non-compliant");
        Browser.Click("form.filters button[type=submit]");
        Browser.WaitUntil(d => d.Url.Contains("status=NonCompliant", StringComparison.Ordinal));
        Browser.WaitFor("table[data-grid]");

        var statuses = Browser.Attributes("tbody a[data-instance]", "data-status");
        Assert.Equal(demo.Server.InstanceCount, all);
        Assert.InRange(statuses.Count, 1, all - 1);
        Assert.All(statuses, s => Assert.Equal("NonCompliant", s));
        Assert.EndsWith("instances/export.csv?status=NonCompliant", Browser.Attribute("a[data-export=csv]", "href"), StringComparison.Ordinal);
        Browser.Screenshot("instances-filtered");

        // Sorting happens in place on the live grid; the filter stays, and the address follows.
        Browser.WaitFor("[data-live-indicator]");
        Browser.Click("th button[data-sort=Name]");
        Browser.WaitUntil(_ => Browser.All("th[aria-sort=descending] button[data-sort=Name]").Count == 1); // by name, the other way
        var names = Browser.Attributes("tbody a[data-instance]", "data-instance");
        Assert.Equal(names.OrderDescending(StringComparer.OrdinalIgnoreCase), names);
        Assert.All(Browser.Attributes("tbody a[data-instance]", "data-status"), s => Assert.Equal("NonCompliant", s));
        Browser.WaitUntil(d => d.Url.EndsWith("instances?status=NonCompliant&sort=name&dir=desc", StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_grid_address_with_filter_sort_columns_and_page_reopens_that_view()
    {
        const string address = "instances?policy=Required&sort=timelost&dir=desc&page=2&size=25&cols=name,status,timelost";
        var view = InstanceQuery.Parse(key => Microsoft.AspNetCore.WebUtilities.QueryHelpers.ParseQuery(address[address.IndexOf('?')..])
            .TryGetValue(key, out var value) ? value.ToString() : null);
        var fleet = await demo.Server.Services.GetRequiredService<IFleetAssessments>().GetAsync(CancellationToken.None);
        var expected = GridSource.For(fleet).Page(view);
        Assert.True(expected.Page == 2, $"the demo fleet has {expected.Matching} instances that require IFI: no second page of 25");

        Browser.Open(Url(address));
        Browser.WaitFor("[data-live-indicator]"); // and once the circuit is up, the live grid keeps the view it was given

        Assert.Equal(expected.Rows.Select(r => r.Name), Browser.Attributes("tbody a[data-instance]", "data-instance"));
        Assert.Equal(["Instance", "Status", "Lost, 30 d"], GridHeaders());
        Assert.Single(Browser.All("th[aria-sort=descending] button[data-sort=TimeLost]"));
        Assert.Contains("Page 2 of", Browser.Text(".paginator .pagination-text"), StringComparison.Ordinal);
        Assert.True(Browser.All("select[name=policy] option[value=Required]").Single().Selected);
        Assert.EndsWith(address, Browser.Driver.Url, StringComparison.Ordinal);
        Assert.Empty(Browser.HorizontalOverflow());
    }

    [Fact]
    public void A_column_hidden_by_keyboard_leaves_the_grid_and_the_address_keeps_it()
    {
        Browser.Open(Url("instances?status=NonCompliant"));
        Browser.WaitFor("[data-live-indicator]");
        Assert.Contains("Owner", GridHeaders());

        Browser.WaitFor("[data-column-choice] summary").SendKeys(Keys.Enter); // opens the column choice
        var owner = Browser.WaitFor("[data-column-choice] input[data-column=Owner]");
        owner.SendKeys(Keys.Space);

        Browser.WaitUntil(_ => !GridHeaders().Contains("Owner"));
        Browser.WaitUntil(d => d.Url.Contains("status=NonCompliant&cols=name,status,environment,tags,version,ifi,policy,timelost,restore,lastpoll", StringComparison.Ordinal));
        Assert.False(owner.Selected);
        Assert.Contains("every column", Browser.Text(".grid-meta"), StringComparison.Ordinal);
        Assert.EndsWith("instances/export.csv?status=NonCompliant", Browser.Attribute("a[data-export=csv]", "href"), StringComparison.Ordinal);
        Browser.Screenshot("instances-columns-chosen");

        // The address reopens the grid without the column.
        Browser.Open(Browser.Driver.Url);
        Browser.WaitFor("table[data-grid=instances]");
        Assert.DoesNotContain("Owner", GridHeaders());
    }

    [Fact]
    public void The_instance_with_most_time_lost_opens_on_its_detail_page()
    {
        Browser.Open(Url("instances?sort=timelost&dir=desc"));
        const string link = "tbody a[data-instance]";
        var name = Browser.Text(link);

        Browser.Click(link);
        Browser.WaitUntil(d => d.FindElement(By.TagName("h1")).Text == name);

        Assert.NotEmpty(Browser.All("[data-table=files] tbody tr"));
        Assert.NotEmpty(Browser.All("[data-chart=growth] .growth-point"));
        Assert.NotEmpty(Browser.All("[data-table=polls] tbody tr"));
        Assert.NotEmpty(Browser.All("[data-remediation] ol li"));
        Browser.Screenshot("instance-detail");

        // The growth explorer's window is a link: the live page takes it in place and the address keeps it.
        Browser.WaitFor("[data-live-indicator]");
        var quarter = Browser.All("[data-chart=growth] .growth-point").Count;
        Browser.Click("nav.window-select a[data-growth-window=all]");
        Browser.WaitUntil(_ => Browser.Attributes("nav.window-select a[aria-current=true]", "data-growth-window") is ["all"]);
        Assert.Contains("growth=all", Browser.Driver.Url, StringComparison.Ordinal);
        Assert.Equal("Growth events, all kept", Browser.Text("#h-growth"));
        var points = Browser.Attributes("[data-chart=growth] .growth-point", "data-series");
        Assert.True(points.Count >= quarter, $"all kept plots {points.Count}, 90 days {quarter}");
        Assert.Equal(points.Distinct().Order(StringComparer.Ordinal), Browser.Attributes("[data-chart=growth] .legend li", "data-series").Order(StringComparer.Ordinal));
        // Each point's hover text, as Chromium shows it on hovering (an SVG title has no innerText: its textContent).
        var titles = (IEnumerable<object>)Browser.Driver.ExecuteScript(
            "return Array.from(document.querySelectorAll('[data-chart=growth] .growth-point > title'), t => t.textContent);")!;
        Assert.All(titles.Cast<string>().ToList(),
            title => Assert.Matches(@"^\d{4}-\d\d-\d\d \d\d:\d\d UTC · .+ / .+ \((data|log)\) · \+.+ in .+ · IFI (on|off|unknown)", title));
        Browser.Screenshot("instance-growth-all");
    }

    [Fact]
    public void An_unreachable_instance_shows_its_failed_probe_and_what_to_do()
    {
        Browser.Open(Url("instances?q=unreachable"));
        Browser.Click("tbody a[data-instance]");

        Assert.Contains("Test-NetConnection", Browser.Text("tr[data-outcome=Unreachable]"), StringComparison.Ordinal);
        Browser.Screenshot("instance-unreachable");
    }

    [Fact]
    public void The_theme_toggle_switches_and_is_remembered()
    {
        Browser.Driver.Manage().Cookies.DeleteAllCookies();
        Browser.Open(Url(""));
        var toggle = Browser.WaitFor("[data-theme-toggle]");
        string Background() => (string)Browser.Driver.ExecuteScript("return getComputedStyle(document.body).backgroundColor")!;
        string? Theme() => Browser.Driver.FindElement(By.TagName("html")).GetAttribute("data-theme");
        var before = Background();
        Assert.Equal("Dark theme", toggle.Text); // the button names the theme it switches to

        toggle.Click();
        var chosen = Theme();
        Assert.Equal("dark", chosen); // headless Chromium prefers light, so the first click goes dark
        Assert.NotEqual(before, Background());
        Assert.Equal("Light theme", toggle.Text);
        Assert.Null(toggle.GetAttribute("aria-pressed")); // a pressed state beside a changing label would contradict it

        Browser.Click(".main-nav a[href=instances]"); // enhanced navigation: the next page is merged into this one
        Browser.WaitFor("table[data-grid]");
        Assert.Equal("dark", Theme());
        Browser.WaitUntil(_ => Browser.Text("[data-theme-toggle]:not([hidden])") == "Light theme");
        Browser.Screenshot("instances-dark");
        Browser.Open(Url(""));
        Browser.WaitFor("[data-count=Compliant]");
        Browser.Screenshot("overview-dark");

        Browser.WaitFor("[data-theme-toggle]").Click();
        Assert.Equal("light", Theme());
        Assert.Equal("Dark theme", Browser.Text("[data-theme-toggle]"));
        Assert.Equal(before, Background());
    }

    /// <summary>A demo instance whose IFI is off where it is required, and not waived: turning IFI on makes it compliant.</summary>
    async Task<InstanceRegistration> NonCompliantForWantOfIfiAsync()
    {
        var fleet = await demo.Server.Services.GetRequiredService<IFleetAssessments>().GetAsync(CancellationToken.None);
        return fleet.Instances.First(i => i.Compliance is { Status: ComplianceStatus.NonCompliant, Waiver: null, Policy.Desired: DesiredState.Required }
            && i.Compliance.Observed == IfiState.Disabled).Registration;
    }

    /// <summary>An element the test adds to the page: still there later means the page was not reloaded.</summary>
    void MarkPage() => Browser.Driver.ExecuteScript("const m = document.createElement('i'); m.id = 'kept'; document.body.append(m);");

    [Fact]
    public async Task A_poll_landing_updates_the_overview_and_the_filtered_grid_in_place()
    {
        var instance = await NonCompliantForWantOfIfiAsync();
        var simulated = demo.Server.Simulated(instance.Name);
        Browser.Open(Url(""));
        Browser.WaitFor("[data-live-indicator]"); // the page's circuit is up: it now follows assessments
        var compliant = Number(Browser.Text("[data-count=Compliant] .tile-value"));
        MarkPage();
        try
        {
            simulated.IfiEnabled = true; // the DBA granted the privilege and restarted the service
            await demo.Server.PollLandsAsync(instance);

            Browser.WaitUntil(_ => Number(Browser.Text("[data-count=Compliant] .tile-value")) == compliant + 1);
            Assert.NotEmpty(Browser.All("#kept"));
            Browser.Screenshot("overview-after-poll");

            Browser.Open(Url("instances?status=NonCompliant"));
            Browser.WaitFor("[data-live-indicator]");
            Assert.Empty(Browser.All($"a[data-instance='{instance.Name}']"));
            MarkPage();

            simulated.IfiEnabled = false; // and lost again
            await demo.Server.PollLandsAsync(instance);

            Assert.Equal("NonCompliant", Browser.Attribute($"a[data-instance='{instance.Name}']", "data-status"));
            Assert.NotEmpty(Browser.All("#kept"));
            Assert.Contains("status=NonCompliant", Browser.Driver.Url, StringComparison.Ordinal);
            Assert.All(Browser.Attributes("tbody a[data-instance]", "data-status"), s => Assert.Equal("NonCompliant", s));
        }
        finally
        {
            simulated.IfiEnabled = false;
        }
    }
}
