using System.Globalization;
using IfiDashboard.Client.Components;
using Microsoft.AspNetCore.Components;

namespace IfiDashboard.Client.Pages.Audit;

/// <summary>The audit log with filters (actor, action, time range), paged by the id of the last entry shown.</summary>
public partial class AuditPage
{
    public const int PageSize = 100;

    [Inject] IAuditView Audit { get; set; } = null!;
    [Inject] NavigationManager Navigation { get; set; } = null!;

    [SupplyParameterFromQuery(Name = "actor")] public string? Actor { get; set; }
    [SupplyParameterFromQuery(Name = "action")] public string? Action { get; set; }
    [SupplyParameterFromQuery(Name = "from")] public string? From { get; set; }
    [SupplyParameterFromQuery(Name = "to")] public string? To { get; set; }
    [SupplyParameterFromQuery(Name = "before")] public string? Before { get; set; }

    AuditPageData? _page;
    DateTimeOffset? _from;
    DateTimeOffset? _to;
    string? _loadError;
    string? _filterError;

    protected override async Task OnParametersSetAsync()
    {
        _from = ParseMoment(From, "From");
        _to = ParseMoment(To, "To");
        try
        {
            _page = await Audit.ReadAsync(new AuditQuery(Empty(Actor), Empty(Action), _from, _to, QueryNumber.Id(Before), PageSize), PageClosed);
        }
        catch (Exception e)
        {
            _loadError = Failures.Logged("Reading the audit log", e);
        }
    }

    DateTimeOffset? ParseMoment(string? text, string label)
    {
        if (string.IsNullOrEmpty(text))
            return null;
        if (DateTimeOffset.TryParse(text, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal | DateTimeStyles.AdjustToUniversal, out var value))
            return value;
        _filterError = $"{label} is not a date and time; it was left out of the filter.";
        return null;
    }

    static string? Empty(string? value) => string.IsNullOrEmpty(value) ? null : value;

    string CsvHref => "audit.csv" + Query(before: null);

    string PageHref(long before) => "audit" + Query(before);

    string Query(long? before)
    {
        var parameters = new Dictionary<string, object?>
        {
            ["actor"] = Empty(Actor),
            ["action"] = Empty(Action),
            ["from"] = Empty(From),
            ["to"] = Empty(To),
            ["before"] = before,
        };
        var uri = Navigation.GetUriWithQueryParameters("audit", parameters);
        var query = uri.IndexOf('?', StringComparison.Ordinal);
        return query < 0 ? "" : uri[query..];
    }

    static string? InputValue(DateTimeOffset? value) =>
        value?.UtcDateTime.ToString("yyyy-MM-ddTHH:mm", CultureInfo.InvariantCulture);

    static string Moment(DateTimeOffset value) => value.UtcDateTime.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture);
}
