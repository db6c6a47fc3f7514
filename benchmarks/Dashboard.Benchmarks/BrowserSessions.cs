using System.Diagnostics;
using IfiDashboard.E2E.Tests;
using OpenQA.Selenium;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>
/// Interactive sessions as people hold them: tabs of one headless Chromium (the browser tests' driver), each with a
/// live page open on its own circuit. WebDriver talks to one tab at a time, so whatever is timed is timed inside the
/// page (a MutationObserver stamps the moment the DOM changed) and only read back through WebDriver afterwards.
/// </summary>
internal sealed class BrowserSessions(Browser browser, Uri server) : IDisposable
{
    readonly List<(string Handle, string Path)> _tabs = [];

    public IReadOnlyList<string> OverviewTabs => _tabs.Where(t => t.Path == "").Select(t => t.Handle).ToList();
    public IReadOnlyList<string> GridTabs => _tabs.Where(t => t.Path == GridPath).Select(t => t.Handle).ToList();
    public int Count => _tabs.Count;
    public const string GridPath = "instances";

    /// <summary>Loads a page in the first tab until its circuit is up, then leaves it: the server's code runs warm before the baseline.</summary>
    public void WarmUp()
    {
        foreach (var path in new[] { "", GridPath, "" })
        {
            browser.Open(new Uri(server, path).ToString());
            WaitLive(TimeSpan.FromSeconds(60));
        }
        // Leaving the page closes its circuit (blazor.web.js tells the server on unload).
        browser.Open("about:blank");
    }

    /// <summary>Opens <paramref name="count"/> more tabs, every fifth on the grid and the others on the overview.</summary>
    public void Open(int count)
    {
        for (var opened = 0; opened < count; opened++)
        {
            var i = _tabs.Count;
            var path = i % 5 == 4 ? GridPath : "";
            if (i > 0) browser.Driver.SwitchTo().NewWindow(WindowType.Tab);
            browser.Open(new Uri(server, path).ToString());
            _tabs.Add((browser.Driver.CurrentWindowHandle, path));
        }
    }

    /// <summary>Waits until every tab shows the live indicator (its page runs on a connected circuit) and counts them.</summary>
    public (int Live, int Visible) WaitAllLive(TimeSpan timeout)
    {
        int live = 0, visible = 0;
        foreach (var (handle, _) in _tabs)
        {
            browser.Driver.SwitchTo().Window(handle);
            WaitLive(timeout);
            live++;
            if (browser.Driver.ExecuteScript("return document.visibilityState") as string == "visible") visible++;
        }
        return (live, visible);
    }

    void WaitLive(TimeSpan timeout) => browser.WaitUntil(_ => browser.All("[data-live-indicator]").Count > 0, (int)timeout.TotalSeconds);

    // Each overview stamps (Date.now(), the assessment it shows) whenever the assessment time it shows changes: the
    // Freshness line's <time data-computed-at> carries the ComputedAt of the assessment every figure on it comes from.
    const string WatchOverview = """
        if (!window.ifiLandings) {
          window.ifiLandings = [];
          const shown = () => { const e = document.querySelector('time[data-computed-at]'); return e ? Date.parse(e.getAttribute('datetime')) : null; };
          let last = shown();
          new MutationObserver(() => { const at = shown(); if (at !== last) { last = at; window.ifiLandings.push([Date.now(), at]); } })
            .observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['datetime'] });
        }
        const e = document.querySelector('time[data-computed-at]');
        return e ? Date.parse(e.getAttribute('datetime')) : null;
        """;

    /// <summary>Starts the watch in every overview tab; returns the assessment time each shows now.</summary>
    public IReadOnlyList<long?> WatchOverviews() => OverviewTabs.Select(handle =>
    {
        browser.Driver.SwitchTo().Window(handle);
        return browser.Driver.ExecuteScript(WatchOverview) is long at ? at : (long?)null;
    }).ToList();

    /// <summary>
    /// When each overview first showed the assessment computed at <paramref name="computedAt"/> (Unix ms), waiting for
    /// the slowest up to <paramref name="timeout"/>; a tab that never shows it is null.
    /// </summary>
    public IReadOnlyList<long?> WhenOverviewsShowed(long computedAt, TimeSpan timeout)
    {
        var clock = Stopwatch.StartNew();
        var shown = new List<long?>();
        foreach (var handle in OverviewTabs)
        {
            browser.Driver.SwitchTo().Window(handle);
            long? at = null;
            while (at is null && clock.Elapsed < timeout)
            {
                at = browser.Driver.ExecuteScript(
                    "return (window.ifiLandings ?? []).filter(e => e[1] === arguments[0]).map(e => e[0])[0] ?? null;", computedAt) as long?;
                if (at is null) Thread.Sleep(20); // polls the page's own record; the time itself was stamped in the page
            }
            shown.Add(at);
        }
        return shown;
    }

    /// <summary>The first grid tab, its grid watched.</summary>
    public GridProbe GridProbe()
    {
        browser.Driver.SwitchTo().Window(GridTabs[0]);
        var probe = new GridProbe(browser);
        probe.Install();
        return probe;
    }

    public void Dispose() => browser.Dispose();
}
