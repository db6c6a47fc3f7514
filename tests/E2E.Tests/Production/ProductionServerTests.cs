namespace IfiDashboard.E2E.Tests.Production;

/// <summary>
/// Every page of the demo, from the server's build output and from a publish output, in the Production environment:
/// each stylesheet and script a page links is served, the stylesheet applies and the theme toggle works; on the build
/// output each page is saved light and dark with IFI_TEST_SCREENSHOTS set (screenshots/production-build-*.png) and passes axe-core's WCAG 2.1 A/AA
/// rules (no serious or critical violation) light and dark, at 1440 px and on a 390 px phone screen, and fits both without
/// sideways scrolling, its tables inside their panels at 1440 px.
/// </summary>
[Collection(ProductionCollection.Name)]
public sealed class ProductionServerTests(ProductionServerFixture production)
{
    static readonly HttpClient Http = new() { Timeout = TimeSpan.FromSeconds(30) };

    Browser Browser => production.Browser;

    [Theory]
    [InlineData(ProductionServerFixture.BuildOutput)]
    [InlineData(ProductionServerFixture.PublishOutput)]
    public async Task Every_page_is_styled_and_scripted(string output)
    {
        var (server, baseUrl) = await production.ServerAsync(output);
        var pages = new List<(string Name, string Path)>
        {
            ("overview", ""), ("instances", "instances"), ("policy", "policy"), ("alerts", "alerts"),
            ("alert-settings", "alerts/settings"), ("inventory", "inventory"), ("registration", "inventory/new"),
            ("changes", "changes"), ("audit", "audit"), ("collectors", "collectors"), ("import", "inventory/import"),
            // The method statement the overview's figures link to, whole and one topic.
            ("method", "method"), ("method-topic", "method/restore-risk"),
            // Today's evidence report: its sections, tables and manifest, under the same CSP as every page.
            ("evidence-report", $"reports/evidence?from={DateTime.UtcNow:yyyy-MM-dd}&to={DateTime.UtcNow.AddDays(1):yyyy-MM-dd}"),
        };
        Browser.Open(baseUrl + "inventory");
        // The demo registers its fleet once the server is up: the first instance gives the two pages of one instance.
        var id = Browser.Attribute("a[data-edit]", "data-edit", seconds: 60);
        // The detail page of an instance whose trace has growths (scenarios/demo-fleet.json), every kept one in its chart.
        var withGrowths = Browser.Attribute("a[data-edit][aria-label='Edit sql22-win-30']", "data-edit");
        pages.Add(("instance-detail", $"instances/{withGrowths}?growth=all"));
        pages.Add(("instance-edit", $"inventory/{id}"));
        pages.Add(("alert-silences", $"alerts/silences?instance={id}"));

        string[] live = ["overview", "instances", "alerts", "instance-detail"];
        var served = new Dictionary<string, long>(StringComparer.Ordinal);
        // Both outputs serve the same pages: accessibility and the phone layout are checked, and pages saved, on the first only.
        var checkUsability = output == ProductionServerFixture.BuildOutput;
        var unusable = new List<string>();
        foreach (var (name, path) in pages)
        {
            Browser.Driver.Manage().Cookies.DeleteAllCookies();
            Browser.Open(baseUrl + path);
            var toggle = Browser.WaitFor("[data-theme-toggle]:not([hidden])"); // theme.js ran
            // --demo signs every request in as the demo administrator, and every page says so.
            Assert.Equal("Demo: signed in as demo administrator", Browser.Text("[data-demo-banner]"));
            Assert.Equal("demo administrator", Browser.Text("[data-user]"));

            var assets = Browser.Attributes("link[rel=stylesheet]", "href")
                .Concat(Browser.Attributes("script[src]", "src"))
                .Select(a => new Uri(new Uri(baseUrl), a).ToString()).ToList();
            Assert.Contains(assets, a => a.EndsWith(".css", StringComparison.Ordinal));
            Assert.Contains(assets, a => a.Contains("_framework/blazor.web", StringComparison.Ordinal));
            foreach (var asset in assets.Where(a => !served.ContainsKey(a)))
                served[asset] = await LengthServedAsync(asset);

            // app.css sets the body's margin to 0 and the system font; Chromium's own defaults are 8px and a serif.
            Assert.Equal("0px", Style("document.body", "margin"));
            Assert.Contains("system-ui", Style("document.body", "fontFamily"), StringComparison.Ordinal);
            if (live.Contains(name)) // the page's circuit is up: it renders interactively
                Browser.WaitFor("[data-live-indicator]");
            if (name == "policy") // the impact preview's script is served and its island answers over the circuit
                Browser.WaitFor("[data-impact-preview=rules] [data-impact-none]");
            if (name == "alerts") // the demo configures no relay and no recipient: the page says alerts are off
                Assert.StartsWith("Alerts are off", Browser.Text("[data-alerts-off]"), StringComparison.Ordinal);

            if (name == "instance-detail") // its growths are plotted once its first poll has landed
                Browser.WaitFor("[data-chart=growth] .growth-point", seconds: 60);
            if (name == "evidence-report")
                Browser.WaitFor("[data-report-sha256]");
            if (name == "overview")
            {
                await OverviewLinksAnswerAsync(baseUrl);
                toggle = Browser.WaitFor("[data-theme-toggle]:not([hidden])"); // the page was left and come back to
            }
            if (name.StartsWith("method", StringComparison.Ordinal))
                Assert.NotEmpty(Browser.Text("article.method-doc h1"));

            Assert.Empty(Browser.CspViolations());
            var light = Style("document.body", "backgroundColor");
            if (checkUsability)
            {
                Browser.Screenshot($"production-{output}-{name}-light");
                unusable.AddRange(AtDesktopWidth(name, "light"));
                unusable.AddRange(AtPhoneWidth(name, "light"));
            }
            toggle.Click();
            Assert.Equal("dark", Browser.Attribute("html", "data-theme"));
            Assert.NotEqual(light, Style("document.body", "backgroundColor"));
            if (checkUsability)
            {
                Browser.Screenshot($"production-{output}-{name}-dark");
                unusable.AddRange(AtDesktopWidth(name, "dark"));
                unusable.AddRange(AtPhoneWidth(name, "dark"));
            }
        }
        Assert.True(unusable.Count == 0, string.Join(Environment.NewLine, unusable));

        Assert.All(served, asset => Assert.True(asset.Value > 0, $"{asset.Key} was served empty"));
        Assert.DoesNotContain("WebRootPath was not found", server.Output, StringComparison.Ordinal);
    }

    /// <summary>
    /// The overview of the polled demo fleet says what to fix first and breaks compliance down; every link on it answers
    /// 200 (the demo signs every request in), and a figure's method link opens its topic in the browser.
    /// </summary>
    async Task OverviewLinksAnswerAsync(string baseUrl)
    {
        Browser.WaitFor("[data-fix-first] li", seconds: 60);
        Assert.NotEmpty(Browser.All("[data-breakdown=environment] tbody tr a"));
        var links = Browser.Attributes("a[href]", "href").OfType<string>()
            .Select(href => new Uri(new Uri(baseUrl), href)).Where(uri => uri.Host == new Uri(baseUrl).Host)
            .Select(uri => uri.GetLeftPart(UriPartial.Query)).Distinct().ToList();
        Assert.Contains(links, l => l.EndsWith("/method/time-lost-to-zeroing", StringComparison.Ordinal));
        var answers = new List<string>();
        foreach (var link in links)
        {
            using var response = await Http.GetAsync(link);
            answers.Add($"{link} {(int)response.StatusCode}");
        }
        Assert.Equal(links.Select(l => $"{l} 200"), answers);

        Browser.Click("section[aria-labelledby=h-lost] [data-method-link]");
        Assert.StartsWith("Time lost to zeroing", Browser.Text("article.method-doc[data-method=time-lost-to-zeroing] h1"), StringComparison.Ordinal);
        Browser.Driver.Navigate().Back();
        Browser.WaitFor("[data-theme-toggle]:not([hidden])");
        Browser.WaitFor("[data-live-indicator]");
    }

    /// <summary>
    /// The page on a desktop (the browser's 1440 px): axe-core's WCAG 2.1 A/AA rules find nothing serious, the page
    /// needs no scrolling sideways, and no table reaches past the panel it sits in.
    /// </summary>
    IReadOnlyList<string> AtDesktopWidth(string name, string theme)
    {
        var found = Browser.AccessibilityViolations().Select(v => $"{name} ({theme}, 1440 px): {v}").ToList();
        if (Browser.HorizontalOverflow() is { Count: > 0 } overflow)
            found.Add($"{name} ({theme}, 1440 px): wider than the screen: {string.Join(", ", overflow)}");
        if (Browser.TablesPastTheirPanels() is { Count: > 0 } tables)
            found.Add($"{name} ({theme}, 1440 px): tables wider than their panels: {string.Join(", ", tables)}");
        return found;
    }

    /// <summary>
    /// The page on a phone (390 px, an iPhone 12 to 15 held upright): saved as production-phone-NAME-THEME.png, axe-core
    /// finds nothing serious (a table that scrolls sideways is a region the keyboard can reach), and nothing may need
    /// scrolling sideways.
    /// </summary>
    IReadOnlyList<string> AtPhoneWidth(string name, string theme)
    {
        var window = Browser.Driver.Manage().Window;
        var desktop = window.Size;
        window.Size = new System.Drawing.Size(390, 844);
        try
        {
            var found = Browser.AccessibilityViolations().Select(v => $"{name} ({theme}, 390 px): {v}").ToList();
            var overflow = Browser.HorizontalOverflow();
            Browser.Screenshot($"production-phone-{name}-{theme}");
            if (overflow.Count > 0)
                found.Add($"{name} ({theme}, 390 px): wider than the screen: {string.Join(", ", overflow)}");
            return found;
        }
        finally
        {
            window.Size = desktop;
        }
    }

    string Style(string element, string property) =>
        (string)Browser.Driver.ExecuteScript($"return getComputedStyle({element}).{property}")!;

    static async Task<long> LengthServedAsync(string url)
    {
        using var response = await Http.GetAsync(url);
        Assert.True(response.IsSuccessStatusCode, $"{url}: {(int)response.StatusCode}");
        return (await response.Content.ReadAsByteArrayAsync()).LongLength;
    }
}
