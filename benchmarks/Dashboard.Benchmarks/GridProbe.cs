using System.Diagnostics;
using IfiDashboard.E2E.Tests;
using OpenQA.Selenium;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>
/// Times a sort and a filter change in an open fleet grid as its reader sees them: from the click (or the chosen
/// option) to the moment the grid's rows show the new order or only the filtered environment, stamped inside the
/// page. The grid is found by its accessible parts alone, here and nowhere else (the table labelled "Instances", the
/// column header cells by their text, a header's button or link, its aria-sort, the select labelled "Environment"), so
/// the probe works on the hand-written grid and on QuickGrid alike.
/// </summary>
internal sealed class GridProbe(Browser browser)
{
    // Installed on every document the tab loads (a filter may load a new one) and on the current one: a log of the
    // grid's state (the Instance header's aria-sort, the names and environments of the rows) each time it changes,
    // with the high-resolution wall-clock time, comparable across documents.
    const string Watch = """
        window.ifiGrid = window.ifiGrid ?? (() => {
          const table = () => document.querySelector('table[aria-label="Instances"], table[data-grid="instances"]');
          const title = cell => cell.textContent.replace(/[▲▼↑↓]/g, '').trim();
          const headers = () => { const t = table(); return t && t.tHead && t.tHead.rows.length ? [...t.tHead.rows[0].cells] : []; };
          const header = name => headers().find(c => title(c).startsWith(name));
          const column = name => headers().findIndex(c => title(c).startsWith(name));
          const rows = () => { const t = table(); return t && t.tBodies.length ? [...t.tBodies[0].rows].filter(r => r.cells.length > 1) : []; };
          const state = () => {
            // QuickGrid pads a short page with empty rows: a row counts when it names an instance.
            const name = column('Instance'), env = column('Environment');
            const all = name < 0 ? [] : rows().filter(r => (r.cells[name]?.textContent.trim() ?? '') !== '');
            return {
              sort: header('Instance')?.getAttribute('aria-sort') ?? null,
              names: all.map(r => r.cells[name].textContent.trim()),
              envs: env < 0 ? [] : all.map(r => r.cells[env]?.textContent.trim() ?? ''),
            };
          };
          const log = [];
          let last = '';
          const note = () => {
            const s = state(), key = JSON.stringify(s);
            if (key !== last) { last = key; log.push({ t: performance.timeOrigin + performance.now(), ...s }); }
          };
          new MutationObserver(note).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
          note();
          const environment = () => {
            const label = [...document.querySelectorAll('label')].find(l => l.textContent.trim().startsWith('Environment'));
            return label?.control ?? label?.querySelector('select') ?? null;
          };
          return { log, header, environment, now: () => performance.timeOrigin + performance.now() };
        })();
        """;

    const string Sort = """
        const g = window.ifiGrid, cell = g.header('Instance');
        const from = cell.getAttribute('aria-sort');
        const t0 = g.now();
        cell.querySelector('button, a').click();
        return [t0, from === 'ascending' ? 'descending' : 'ascending'];
        """;

    const string Sorted = """
        const [t0, direction] = arguments, g = window.ifiGrid;
        if (!g) return null;
        const order = (a, b) => { const x = a.toUpperCase(), y = b.toUpperCase(); return x < y ? -1 : x > y ? 1 : 0; };
        const sorted = names => names.every((n, i) => i === 0 || (direction === 'ascending' ? order(names[i - 1], n) <= 0 : order(names[i - 1], n) >= 0));
        const e = g.log.find(e => e.t >= t0 && e.sort === direction && e.names.length > 1 && sorted(e.names));
        return e ? e.t - t0 : null;
        """;

    // A select inside a plain GET form is applied by submitting it, as its button would; an interactive one by its
    // change event alone.
    const string Filter = """
        const value = arguments[0], g = window.ifiGrid, select = g.environment();
        const t0 = g.now();
        select.value = value;
        select.dispatchEvent(new Event('input', { bubbles: true }));
        select.dispatchEvent(new Event('change', { bubbles: true }));
        if (select.form && select.form.querySelector('button[type=submit], button:not([type])')) select.form.requestSubmit();
        return t0;
        """;

    const string Filtered = """
        const [t0, value] = arguments, g = window.ifiGrid;
        if (!g) return null;
        const e = g.log.find(e => e.t >= t0 && e.envs.length > 0 && e.envs.every(v => v === value));
        return e ? e.t - t0 : null;
        """;

    public void Install()
    {
        browser.Driver.ExecuteCdpCommand("Page.addScriptToEvaluateOnNewDocument", new Dictionary<string, object?> { ["source"] = Watch });
        browser.Driver.ExecuteScript(Watch);
    }

    public IReadOnlyList<string> Environments() => ((IEnumerable<object?>)browser.Driver.ExecuteScript(
            "return [...window.ifiGrid.environment().options].map(o => o.value).filter(v => v !== '');")!)
        .Select(o => (string)o!).ToList();

    /// <summary>Sorts by instance name the other way; milliseconds until the rows show that order.</summary>
    public double SortByName()
    {
        Settle();
        var started = (IReadOnlyList<object?>)browser.Driver.ExecuteScript(Sort)!;
        return Wait(Sorted, started[0]!, started[1]!);
    }

    /// <summary>Filters on one environment; milliseconds until every row shown is of it.</summary>
    public double FilterEnvironment(string environment)
    {
        Settle();
        var started = browser.Driver.ExecuteScript(Filter, environment)!;
        return Wait(Filtered, started, environment);
    }

    /// <summary>Before each action the page is whole and live again (a filter may have loaded a new document).</summary>
    void Settle() => browser.WaitUntil(_ => browser.All("[data-live-indicator]").Count > 0
        && browser.Driver.ExecuteScript("return document.readyState === 'complete' && !!window.ifiGrid?.header('Instance')") is true, 60);

    double Wait(string script, params object[] arguments)
    {
        var clock = Stopwatch.StartNew();
        while (clock.Elapsed < TimeSpan.FromSeconds(30))
        {
            try
            {
                if (browser.Driver.ExecuteScript(script, arguments) is { } elapsed) return Convert.ToDouble(elapsed, System.Globalization.CultureInfo.InvariantCulture);
            }
            catch (WebDriverException)
            {
                // The tab is between two documents; the new one is asked next.
            }
            Thread.Sleep(10); // polls the page's own log; the time was stamped in the page
        }
        // Say what the grid showed instead, so a changed grid is told apart from a slow one.
        var shown = browser.Driver.ExecuteScript("""
            const e = window.ifiGrid?.log.at(-1);
            return e ? `sort ${e.sort}, ${e.names.length} rows, names ${e.names.slice(0, 3)}, environments ${[...new Set(e.envs)]}, ` +
              `${window.ifiGrid.log.length} states logged, the last ${Math.round(e.t - arguments[0])} ms after the action, url ${location.search}` : 'no grid';
            """, arguments[0]);
        throw new TimeoutException($"The grid did not show the new view ({string.Join(", ", arguments.Skip(1))}) within 30 s; it shows: {shown}");
    }
}
