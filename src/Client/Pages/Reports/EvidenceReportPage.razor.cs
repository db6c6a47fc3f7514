using IfiDashboard.Client.Components;
using System.Globalization;
using Microsoft.AspNetCore.Components;

namespace IfiDashboard.Client.Pages.Reports;

/// <summary>
/// The evidence report as a printable page: the same <see cref="EvidenceReport"/> the API serves for the same query,
/// with links to its JSON and CSV there. Nothing is made until a period is given: a report is compared with later
/// copies of itself, so its bounds are never a default of "now".
/// </summary>
public partial class EvidenceReportPage
{
    [Inject] IEvidenceReportSource Reports { get; set; } = null!;
    [Inject] NavigationManager Navigation { get; set; } = null!;
    [Inject] TimeProvider Time { get; set; } = null!;

    [SupplyParameterFromQuery(Name = "from")] public string? From { get; set; }
    [SupplyParameterFromQuery(Name = "to")] public string? To { get; set; }
    [SupplyParameterFromQuery(Name = "environment")] public string? Environment { get; set; }
    [SupplyParameterFromQuery(Name = "tag")] public string? Tag { get; set; }

    (DateTimeOffset From, DateTimeOffset To)? _query;
    EvidenceReport? _report;
    string? _error;

    protected override async Task OnParametersSetAsync()
    {
        Environment = Empty(Environment);
        Tag = Empty(Tag);
        if (From is null && To is null)
            return;
        if (Day(From) is not { } from || Day(To) is not { } to)
        {
            _error = "From and to are dates, e.g. 2026-10-01 and 2026-11-01.";
            return;
        }
        if (from >= to)
        {
            _error = "From must be earlier than to.";
            return;
        }
        if (to - from > TimeSpan.FromDays(IEvidenceReportSource.MaxDays))
        {
            _error = $"A report covers at most {IEvidenceReportSource.MaxDays} days.";
            return;
        }
        _query = (from, to);
        try
        {
            _report = await Reports.BuildAsync(from, to, Environment, Tag, PageClosed);
        }
        catch (Exception e)
        {
            _error = "The report could not be made: " + Failures.Logged("Making the evidence report", e);
        }
    }

    /// <summary>The previous calendar month (UTC), filled into an empty form.</summary>
    string DefaultFrom => FirstOfMonth(-1).ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);

    string DefaultTo => FirstOfMonth(0).ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);

    DateOnly FirstOfMonth(int monthsFromNow)
    {
        var now = Time.GetUtcNow().UtcDateTime;
        return new DateOnly(now.Year, now.Month, 1).AddMonths(monthsFromNow);
    }

    /// <summary>The API's answer to the same query, which a signed-in user of this page's role may read.</summary>
    string DownloadHref(string format)
    {
        var uri = Navigation.GetUriWithQueryParameters(Navigation.BaseUri + "api/v1/reports/evidence", new Dictionary<string, object?>
        {
            ["from"] = From,
            ["to"] = To,
            ["environment"] = Environment,
            ["tag"] = Tag,
            ["format"] = format == "json" ? null : format,
        });
        return Navigation.ToBaseRelativePath(uri);
    }

    string FileName(string extension) => $"evidence-{From}-{To}.{extension}";

    static DateTimeOffset? Day(string? text) =>
        DateOnly.TryParseExact(text, "yyyy-MM-dd", CultureInfo.InvariantCulture, DateTimeStyles.None, out var day)
            ? new DateTimeOffset(day.ToDateTime(TimeOnly.MinValue), TimeSpan.Zero)
            : null;

    static IEnumerable<(string Kind, string Label, EvidenceBusinessLine Line)> BusinessLines(EvidenceBusinessCase @case) =>
        new[] { ("fleet", "Fleet", @case.Fleet) }
            .Concat(@case.ByEnvironment.Select(l => ("environment", $"Environment {l.Key}", l)))
            .Concat(@case.ByOwner.Select(l => ("owner", $"Owner {l.Key}", l)));

    /// <summary>The days per coverage, each not-monitored day counted under its reason.</summary>
    static IEnumerable<(string Coverage, int Days)> CoverageCounts(EvidenceInstance instance) =>
        instance.Days.GroupBy(d => d.NotMonitoredBecause is { } reason ? $"{Words(d.Coverage)} ({Words(reason).ToLowerInvariant()})" : Words(d.Coverage))
            .OrderBy(g => g.Min(d => d.Coverage)).ThenBy(g => g.Key, StringComparer.Ordinal)
            .Select(g => (g.Key, g.Count()));

    static string DayText(EvidenceDay day) =>
        $"{day.Day:yyyy-MM-dd}: {Words(day.Coverage)}"
        + (day.NotMonitoredBecause is { } reason ? $", {Words(reason).ToLowerInvariant()}" : "")
        + (day.Polls > 0 ? $", {day.Polls} poll{(day.Polls == 1 ? "" : "s")}" : "")
        + (day.Status is { } status ? $", worst status {status}" : "");

    /// <summary>An enumeration's name as words: <c>CollectorSilent</c> reads "collector silent".</summary>
    static string Words<T>(T value) where T : struct, Enum => string.Concat(value.ToString().Select((c, i) =>
        char.IsUpper(c) && i > 0 ? " " + char.ToLowerInvariant(c) : i == 0 ? char.ToUpperInvariant(c).ToString() : c.ToString()));

    static string Number(double value) => value.ToString("0.###", CultureInfo.InvariantCulture);

    static string? Empty(string? value) => string.IsNullOrWhiteSpace(value) ? null : value.Trim();

    static string Moment(DateTimeOffset value) => value.UtcDateTime.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture);
}
