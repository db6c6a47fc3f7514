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
    public const string ChromiumPath = "/usr/bin/chromium";
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
            "--window-size=1440,900", $"--user-data-dir={_profile}");
        Driver = new ChromeDriver(service, options, TimeSpan.FromSeconds(60));
        Driver.Manage().Timeouts().PageLoad = TimeSpan.FromSeconds(30);
    }

    public ChromeDriver Driver { get; }

    public static string ScreenshotDirectory { get; } = Path.Combine(AppContext.BaseDirectory, "screenshots");

    public void Open(string url) => Driver.Navigate().GoToUrl(url);

    public IWebElement WaitFor(string css, int seconds = 15) =>
        new WebDriverWait(Driver, TimeSpan.FromSeconds(seconds)).Until(d => d.FindElements(By.CssSelector(css)).FirstOrDefault());

    public void WaitUntil(Func<IWebDriver, bool> condition, int seconds = 15) =>
        new WebDriverWait(Driver, TimeSpan.FromSeconds(seconds)).Until(condition);

    public IReadOnlyList<IWebElement> All(string css) => Driver.FindElements(By.CssSelector(css));

    /// <summary>Saved beside the test binaries and copied to /tmp/ifi-screenshots, to be looked at after a run.</summary>
    public void Screenshot(string name)
    {
        Directory.CreateDirectory(ScreenshotDirectory);
        var path = Path.Combine(ScreenshotDirectory, name + ".png");
        // The whole page, not the first screenful: the window grows to the document's height for the shot.
        var window = Driver.Manage().Window;
        var size = window.Size;
        var height = Convert.ToInt32(Driver.ExecuteScript("return document.documentElement.scrollHeight"), System.Globalization.CultureInfo.InvariantCulture);
        window.Size = new System.Drawing.Size(size.Width, Math.Clamp(height + 140, 600, 12000));
        Driver.GetScreenshot().SaveAsFile(path);
        window.Size = size;
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
