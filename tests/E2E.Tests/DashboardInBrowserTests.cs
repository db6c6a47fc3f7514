using OpenQA.Selenium;

namespace IfiDashboard.E2E.Tests;

/// <summary>The dashboard against the demo fleet, as a DBA's browser sees it.</summary>
[Collection(DemoCollection.Name)]
public sealed class DashboardInBrowserTests(DemoFixture demo)
{
    Browser Browser => demo.Browser;
    string Url(string path) => demo.Server.BaseUrl + path;

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
        Assert.NotEmpty(Browser.All("[data-table=top-time-lost] tbody tr"));
        Browser.Screenshot("overview");
    }

    [Fact]
    public void A_status_filter_narrows_the_grid()
    {
        Browser.Open(Url("instances"));
        Browser.WaitFor("table[data-grid]");
        var all = Browser.Attributes("tbody tr[data-instance]", "data-status").Count;
        Browser.Screenshot("instances");

        // By keyboard, as a person without a mouse would (clicking an <option> opens a native popup headless Chromium can hang on).
        Browser.Driver.FindElement(By.CssSelector("select[name=status]")).SendKeys("Non-compliant");
        Browser.Driver.FindElement(By.CssSelector("form.filters button[type=submit]")).Click();
        Browser.WaitUntil(d => d.Url.Contains("status=NonCompliant", StringComparison.Ordinal));
        Browser.WaitFor("table[data-grid]");

        var statuses = Browser.Attributes("tbody tr[data-instance]", "data-status");
        Assert.Equal(demo.Server.InstanceCount, all);
        Assert.InRange(statuses.Count, 1, all - 1);
        Assert.All(statuses, s => Assert.Equal("NonCompliant", s));
        Assert.StartsWith("data:text/csv", Browser.Driver.FindElement(By.CssSelector("a[data-export=csv]")).GetAttribute("href"), StringComparison.Ordinal);
        Browser.Screenshot("instances-filtered");
    }

    [Fact]
    public void The_instance_with_most_time_lost_opens_on_its_detail_page()
    {
        Browser.Open(Url("instances?sort=timelost&dir=desc"));
        const string link = "tbody tr[data-instance] th a";
        var name = Browser.Text(link);

        Browser.Click(link);
        Browser.WaitUntil(d => d.FindElement(By.TagName("h1")).Text == name);

        Assert.NotEmpty(Browser.All("[data-table=files] tbody tr"));
        Assert.NotEmpty(Browser.All("[data-chart=growth] .growth-point"));
        Assert.NotEmpty(Browser.All("[data-table=polls] tbody tr"));
        Assert.NotEmpty(Browser.All("[data-remediation] ol li"));
        Browser.Screenshot("instance-detail");
    }

    [Fact]
    public void An_unreachable_instance_shows_its_failed_probe_and_what_to_do()
    {
        Browser.Open(Url("instances?q=unreachable"));
        Browser.Click("tbody tr[data-instance] th a");

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

        toggle.Click();
        var chosen = Theme();
        Assert.Equal("dark", chosen); // headless Chromium prefers light, so the first click goes dark
        Assert.NotEqual(before, Background());
        Assert.Equal("true", toggle.GetAttribute("aria-pressed"));

        Browser.Open(Url("instances"));
        Browser.WaitFor("table[data-grid]");
        Assert.Equal("dark", Theme());
        Browser.Screenshot("instances-dark");
        Browser.Open(Url(""));
        Browser.WaitFor("[data-count=Compliant]");
        Browser.Screenshot("overview-dark");

        Browser.WaitFor("[data-theme-toggle]").Click();
        Assert.Equal("light", Theme());
        Assert.Equal(before, Background());
    }

    [Fact]
    public async Task A_new_assessment_refreshes_the_open_page_without_a_reload()
    {
        Browser.Open(Url(""));
        Browser.WaitFor("[data-count=Compliant]");
        var marker = Browser.Driver.ExecuteScript("const m = document.createElement('i'); m.id = 'kept'; document.body.append(m); return 1;");
        Browser.WaitUntil(_ => Browser.Attributes("html", "data-live-connected") is ["true"]); // the page's EventSource is open

        await demo.Server.AssessAsync();

        Browser.WaitUntil(d => ((IJavaScriptExecutor)d).ExecuteScript("return document.documentElement.dataset.liveRefreshed") is string, 20);
        Assert.NotEmpty(Browser.All("#kept")); // the page was not reloaded: only the live region was swapped
        Assert.NotNull(marker);
    }
}
