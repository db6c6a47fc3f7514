namespace IfiDashboard.E2E.Tests.Production;

/// <summary>
/// Every page of the demo, from the server's build output and from a publish output, in the Production environment:
/// each stylesheet and script a page links is served, the stylesheet applies, the theme toggle works, and each page is
/// saved light and dark (screenshots/production-*.png).
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
        var baseUrl = production.BaseUrl(output);
        var pages = new List<(string Name, string Path)>
        {
            ("overview", ""), ("instances", "instances"), ("policy", "policy"), ("alerts", "alerts"),
            ("alert-settings", "alerts/settings"), ("inventory", "inventory"), ("registration", "inventory/new"),
            ("changes", "changes"),
            // Today's evidence report: its sections, tables and manifest, under the same CSP as every page.
            ("evidence-report", $"reports/evidence?from={DateTime.UtcNow:yyyy-MM-dd}&to={DateTime.UtcNow.AddDays(1):yyyy-MM-dd}"),
        };
        Browser.Open(baseUrl + "inventory");
        // The demo registers its fleet once the server is up: the first instance gives the two pages of one instance.
        var id = Browser.Attribute("a[data-edit]", "data-edit", seconds: 60);
        pages.Add(("instance-detail", $"instances/{id}"));
        pages.Add(("instance-edit", $"inventory/{id}"));

        string[] live = ["overview", "instances", "alerts", "instance-detail"];
        var served = new Dictionary<string, long>(StringComparer.Ordinal);
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
                Browser.WaitFor("[data-live-indicator]", seconds: 30);
            if (name == "policy") // the impact preview's script is served and its island answers over the circuit
                Browser.WaitFor("[data-impact-preview=rules] [data-impact-none]", seconds: 30);

            if (name == "evidence-report")
                Browser.WaitFor("[data-report-sha256]", seconds: 30);

            Assert.Empty(Browser.CspViolations());
            var light = Style("document.body", "backgroundColor");
            Browser.Screenshot($"production-{output}-{name}-light");
            toggle.Click();
            Assert.Equal("dark", Browser.Attribute("html", "data-theme"));
            Assert.NotEqual(light, Style("document.body", "backgroundColor"));
            Browser.Screenshot($"production-{output}-{name}-dark");
        }

        Assert.All(served, asset => Assert.True(asset.Value > 0, $"{asset.Key} was served empty"));
        Assert.DoesNotContain("WebRootPath was not found", production.Process(output).Output, StringComparison.Ordinal);
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
