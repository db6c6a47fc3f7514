using System.Text;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>The results as a Markdown table, ready to paste into docs/benchmarks.md, with the target beside each row.</summary>
internal sealed class Report
{
    readonly List<(string What, string Result, string Target, string Load)> _rows = [];

    public void Add(string what, string result, string target, string load) => _rows.Add((what, result, target, load));

    public void Page(Latencies page, string load, double? targetMs = null) => Add(
        $"GET {page.Page} ({page.Milliseconds.Count} requests, {page.Bytes / 1024.0:F0} KB)",
        $"p50 {page.P50:F1} ms · p95 {page.P95:F1} ms · max {page.Max:F1} ms",
        page.Page is "/" or "/instances" ? Verdict(page.P95 < 100, "< 100 ms")
            : targetMs is { } target ? Verdict(page.P95 < target, $"< {target:F0} ms") : "—",
        load);

    public static string Verdict(bool met, string target) => $"{target} {(met ? "✔ met" : "✘ missed")}";

    public string ToMarkdown()
    {
        var text = new StringBuilder();
        text.AppendLine("| measurement | result | target | load average (1/5/15 min) |");
        text.AppendLine("|---|---|---|---|");
        foreach (var (what, result, target, load) in _rows)
            text.AppendLine($"| {what} | {result} | {target} | {load} |");
        return text.ToString();
    }
}
