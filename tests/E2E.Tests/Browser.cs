using OpenQA.Selenium;
using OpenQA.Selenium.Chrome;
using OpenQA.Selenium.Support.UI;

namespace IfiDashboard.E2E.Tests;

/// <summary>
/// Headless Chromium from the Debian packages (chromium, chromium-driver; scripts/install-test-dependencies.sh).
/// Both paths are given explicitly so Selenium Manager never tries to download a browser or a driver.
/// </summary>
public sealed class Browser : IDisposable
{
    /// <summary>
    /// The browser program itself, not Debian's /usr/bin/chromium: that wrapper script adds flags from /etc/chromium.d
    /// meant for a desktop (among them <c>--enable-gpu-rasterization</c>, which in a headless browser without a GPU
    /// rasterises every frame through the SwiftShader software GPU, and extension loading).
    /// </summary>
    public const string ChromiumPath = "/usr/lib/chromium/chromium";
    public const string DriverPath = "/usr/bin/chromedriver";

    readonly string _profile = Directory.CreateTempSubdirectory("ifi-chromium-").FullName;

    public Browser()
    {
        if (!File.Exists(ChromiumPath) || !File.Exists(DriverPath))
            throw new InvalidOperationException(
                $"Headless Chromium is missing ({ChromiumPath}, {DriverPath}): run scripts/install-test-dependencies.sh");
        var service = ChromeDriverService.CreateDefaultService(Path.GetDirectoryName(DriverPath)!, Path.GetFileName(DriverPath));
        service.SuppressInitialDiagnosticInformation = true;
        service.HideCommandPromptWindow = true;
        var options = new ChromeOptions { BinaryLocation = ChromiumPath };
        options.AddArguments(
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
            "--window-size=1440,900", $"--user-data-dir={_profile}",
            // Work a test never looks at: extensions, audio, and the optimisation guide's on-device model service.
            "--disable-extensions", "--disable-component-extensions-with-background-pages", "--mute-audio",
            "--disable-features=OptimizationHints,OptimizationGuideModelDownloading,OptimizationTargetPrediction,OptimizationGuideOnDeviceModel,Translate,MediaRouter");
        // Safety nets, not expectations: under the test command's own load on two cores a cold published server's first
        // page load ran past 30 s ("Timed out receiving message from renderer"). The driver's command limit stays
        // above the page-load limit, so a slow load is reported as one.
        Driver = new ChromeDriver(service, options, TimeSpan.FromSeconds(180));
        Driver.Manage().Timeouts().PageLoad = TimeSpan.FromSeconds(120);
        // Every page records what the Content-Security-Policy blocked, from its first script on (CspViolations).
        Driver.ExecuteCdpCommand("Page.addScriptToEvaluateOnNewDocument", new Dictionary<string, object?>
        {
            ["source"] = "window.cspViolations = []; document.addEventListener('securitypolicyviolation', " +
                         "e => window.cspViolations.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'}`));",
        });
    }

    /// <summary>What the page's Content-Security-Policy blocked since it loaded.</summary>
    public IReadOnlyList<string?> CspViolations() => Strings("return window.cspViolations ?? [];");

    public ChromeDriver Driver { get; }

    static readonly Lazy<string> AxeSource = new(() =>
    {
        var path = Path.Combine(RepositoryRoot.Path,
            "tests", "Accessibility", "node_modules", "axe-core", "axe.min.js");
        return File.Exists(path)
            ? File.ReadAllText(path)
            : throw new InvalidOperationException($"axe-core is missing ({path}): run scripts/install-test-dependencies.sh");
    });

    /// <summary>
    /// What axe-core finds serious or critical on the page as it is now (WCAG 2.x A and AA rules), one line per rule
    /// with the elements it names. The script is handed in through WebDriver, which the page's Content-Security-Policy
    /// does not govern, so the page is checked exactly as served.
    /// </summary>
    public IReadOnlyList<string> AccessibilityViolations()
    {
        // Once per document: a page checked light and dark, at two widths, parses axe-core's half megabyte once.
        if (Driver.ExecuteScript("return typeof window.axe === 'undefined';") is true)
            Driver.ExecuteScript(AxeSource.Value);
        Driver.Manage().Timeouts().AsynchronousJavaScript = TimeSpan.FromSeconds(60);
        var found = Driver.ExecuteAsyncScript("""
            const done = arguments[arguments.length - 1];
            axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] })
              .then(r => done(r.violations
                .filter(v => v.impact === 'serious' || v.impact === 'critical')
                .map(v => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.slice(0, 5).map(n => n.target.join(' ')).join(', ')}`)))
              .catch(e => done(['axe failed: ' + e]));
            """);
        return ((IEnumerable<object?>)found!).Select(o => o as string ?? "").ToList();
    }

    /// <summary>
    /// What sticks out of the window sideways: empty when nothing needs scrolling sideways, else the outermost elements
    /// reaching past the window's right edge (tag.class) and by how many pixels; what a scrolling box holds does not count.
    /// </summary>
    public IReadOnlyList<string?> HorizontalOverflow() => Strings("""
        const width = document.documentElement.clientWidth;
        if (document.documentElement.scrollWidth <= width) return [];
        const past = e => e.getBoundingClientRect().right > width + 0.5;
        const clipped = e => { for (let a = e.parentElement; a && a !== document.body; a = a.parentElement)
          if (getComputedStyle(a).overflowX !== 'visible') return true; return false; };
        const outermost = [...document.querySelectorAll('body *')]
          .filter(e => past(e) && !past(e.parentElement) && !clipped(e))
          .slice(0, 5)
          .map(e => `${e.tagName.toLowerCase()}${e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\s+/).join('.') : ''} +${Math.round(e.getBoundingClientRect().right - width)} px`);
        // An absolutely positioned element can escape its scrolling box and widen the page from inside it.
        return outermost.length > 0 ? outermost : [`the page +${document.documentElement.scrollWidth - width} px`];
        """);

    /// <summary>
    /// Tables whose right edge reaches past the panel (or section) they sit in, with by how many pixels; a table in a
    /// region that scrolls sideways on purpose (.table-scroll) does not count.
    /// </summary>
    public IReadOnlyList<string?> TablesPastTheirPanels() => Strings("""
        return [...document.querySelectorAll('main table')]
          .filter(t => !t.closest('.table-scroll'))
          .map(t => [t, t.parentElement.closest('.panel, section, article, main')])
          .filter(([t, panel]) => panel && t.getBoundingClientRect().right > panel.getBoundingClientRect().right + 0.5)
          .slice(0, 5)
          .map(([t, panel]) => `table${t.dataset.table ? '[data-table=' + t.dataset.table + ']' : ''}${t.dataset.breakdown ? '[data-breakdown=' + t.dataset.breakdown + ']' : ''} +${Math.round(t.getBoundingClientRect().right - panel.getBoundingClientRect().right)} px`);
        """);

    public static string ScreenshotDirectory { get; } = Path.Combine(AppContext.BaseDirectory, "screenshots");

    public void Open(string url) => Driver.Navigate().GoToUrl(url);

    // Live pages re-render in place over their circuit whenever an assessment lands, so an element found in one
    // WebDriver call can be detached by the next. Waits therefore retry a stale element, and reads of live content run as one
    // script, during which the page cannot change.

    public IWebElement WaitFor(string css, int seconds = DefaultWaitSeconds) =>
        Wait(seconds).Until(d => d.FindElements(By.CssSelector(css)).FirstOrDefault());

    public void WaitUntil(Func<IWebDriver, bool> condition, int seconds = DefaultWaitSeconds) => Wait(seconds).Until(condition);

    /// <summary>Clicks the first match, finding it again if a live refresh replaced it before the click landed.</summary>
    public void Click(string css, int seconds = DefaultWaitSeconds) => Wait(seconds).Until(d =>
    {
        d.FindElement(By.CssSelector(css)).Click();
        return true;
    });

    /// <summary>The attribute of every match, read in one script run.</summary>
    public IReadOnlyList<string?> Attributes(string css, string name) =>
        Strings("return Array.from(document.querySelectorAll(arguments[0]), e => e.getAttribute(arguments[1]));", css, name);

    /// <summary>The rendered text of every match, read in one script run.</summary>
    public IReadOnlyList<string?> Texts(string css) =>
        Strings("return Array.from(document.querySelectorAll(arguments[0]), e => e.innerText);", css);

    /// <summary>The attribute of the first match, once there is one.</summary>
    public string? Attribute(string css, string name, int seconds = DefaultWaitSeconds) =>
        Wait(seconds).Until(_ => Attributes(css, name) is [var first, ..] ? new[] { first } : null)[0];

    /// <summary>The rendered text of the first match, once there is one.</summary>
    public string Text(string css, int seconds = DefaultWaitSeconds) =>
        Wait(seconds).Until(_ => Texts(css) is [var first, ..] ? first : null) ?? "";

    public IReadOnlyList<IWebElement> All(string css) => Driver.FindElements(By.CssSelector(css));

    /// <summary>How long a wait for something on a page lasts before it fails: a safety net for a loaded machine.</summary>
    const int DefaultWaitSeconds = 60;

    WebDriverWait Wait(int seconds)
    {
        var wait = new WebDriverWait(Driver, TimeSpan.FromSeconds(seconds));
        wait.IgnoreExceptionTypes(typeof(NoSuchElementException), typeof(StaleElementReferenceException));
        return wait;
    }

    IReadOnlyList<string?> Strings(string script, params object[] arguments) =>
        ((IEnumerable<object?>)Driver.ExecuteScript(script, arguments)!).Select(o => o as string).ToList();

    /// <summary>
    /// Whether <see cref="Screenshot"/> saves pages: only when IFI_TEST_SCREENSHOTS is set (and not 0). A screenshot is
    /// a picture to look at, not a check, and a whole-page capture cost Chromium more processor time than the checks
    /// around it (about a hundred in the Production tour alone).
    /// </summary>
    public static bool SavesScreenshots { get; } =
        Environment.GetEnvironmentVariable("IFI_TEST_SCREENSHOTS") is { Length: > 0 } value && value != "0";

    /// <summary>
    /// Saved beside the test binaries and copied to /tmp/ifi-screenshots, to be looked at after a run, when
    /// <see cref="SavesScreenshots"/>.
    /// </summary>
    public void Screenshot(string name)
    {
        if (!SavesScreenshots) return;
        Directory.CreateDirectory(ScreenshotDirectory);
        var path = Path.Combine(ScreenshotDirectory, name + ".png");
        // The whole page, not the first screenful: the window grows to the document's height for the shot.
        var window = Driver.Manage().Window;
        var size = window.Size;
        var height = Convert.ToInt32(Driver.ExecuteScript("return document.documentElement.scrollHeight"), System.Globalization.CultureInfo.InvariantCulture);
        window.Size = new System.Drawing.Size(size.Width, Math.Clamp(height + 140, 600, 12000));
        try
        {
            Driver.GetScreenshot().SaveAsFile(path);
        }
        catch (WebDriverTimeoutException)
        {
            // A picture to look at after the run, not a check: chromedriver gives the renderer a fixed 10 s to capture
            // a whole page, which a loaded machine ran past ("Timed out receiving message from renderer").
            return;
        }
        finally
        {
            window.Size = size;
        }
        try
        {
            Directory.CreateDirectory("/tmp/ifi-screenshots");
            File.Copy(path, Path.Combine("/tmp/ifi-screenshots", name + ".png"), overwrite: true);
        }
        catch (IOException) { }
        catch (UnauthorizedAccessException) { }
    }

    public void Dispose()
    {
        Driver.Quit();
        Driver.Dispose();
        try { Directory.Delete(_profile, recursive: true); } catch (IOException) { }
    }
}
