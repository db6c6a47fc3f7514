using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Summary;

namespace IfiDashboard.Client.Pages.Instances;

/// <summary>One page of the grid and where it sits in the filtered fleet.</summary>
public sealed record GridPage(IReadOnlyList<InstanceGridRow> Rows, int Matching, int Page, int Pages, int FirstRowNumber);

/// <summary>Filtering, sorting and paging of the instance grid: pure, so the tests need no page to check them.</summary>
public static class InstanceGrid
{
    public const string StaleFilter = "stale";

    /// <summary>
    /// One page of the view, from rows already in the query's order (<see cref="Sorted"/>): filtering keeps that order
    /// and the sort is total (name, then id), so the fleet is not sorted again on every request.
    /// </summary>
    public static GridPage ApplySorted(IReadOnlyList<InstanceGridRow> sorted, InstanceQuery query) =>
        PageOf(MatchingSorted(sorted, query), query);

    /// <summary>Every row the query's filters match, in the order of <paramref name="sorted"/>: the view, unpaged.</summary>
    public static IReadOnlyList<InstanceGridRow> MatchingSorted(IReadOnlyList<InstanceGridRow> sorted, InstanceQuery query) =>
        query.HasFilters ? sorted.Where(r => Matches(r, query)).ToList() : sorted;

    /// <summary>Every row in the order the query's sort column and direction give.</summary>
    public static IReadOnlyList<InstanceGridRow> Sorted(IEnumerable<InstanceGridRow> rows, InstanceQuery query) =>
        Sort(rows, query).ToList();

    static GridPage PageOf(IReadOnlyList<InstanceGridRow> matching, InstanceQuery query)
    {
        var pages = Math.Max(1, (matching.Count + query.PageSize - 1) / query.PageSize);
        var page = Math.Min(query.Page, pages);
        var skip = (page - 1) * query.PageSize;
        return new GridPage(matching.Skip(skip).Take(query.PageSize).ToList(), matching.Count, page, pages, skip + 1);
    }

    public static bool Matches(InstanceGridRow row, InstanceQuery q) =>
        MatchesStatus(row, q.Status)
        && (q.Environment is null || Same(row.Environment, q.Environment))
        && (q.Tag is null || (q.Tag == FleetSummaries.NoTag ? row.Tags.Count == 0 : row.Tags.Any(t => Same(t, q.Tag))))
        && (q.Version is null || row.MajorVersion == q.Version)
        && (q.Owner is null || (q.Owner == FleetSummaries.NoOwner ? row.Owner.Length == 0 : Same(row.Owner, q.Owner)))
        && (q.Policy is null || row.Desired == q.Policy)
        && (q.Text is null || Contains(row, q.Text));

    /// <summary>Tags are a list and the policy has three values: neither orders a fleet usefully, so neither sorts.</summary>
    public static bool IsSortable(GridColumn column) => column is not (GridColumn.Tags or GridColumn.Policy);

    /// <summary>Numbers read worst-first; names read A to Z.</summary>
    public static bool DescendingFirst(GridColumn column) => column is GridColumn.TimeLost or GridColumn.Restore or GridColumn.LastPoll;

    static bool MatchesStatus(InstanceGridRow row, string? status) => status switch
    {
        null => true,
        _ when Same(status, StaleFilter) => row.IsStale,
        _ => Enum.TryParse<ComplianceStatus>(status, ignoreCase: true, out var wanted) && row.Status == wanted,
    };

    /// <summary>Free text looks wherever a DBA might remember a fragment from: name, account, version, reason.</summary>
    static bool Contains(InstanceGridRow row, string text) =>
        new[] { row.Name, row.Environment, row.Owner, row.Version, row.IfiText, row.Explanation, row.EngineServiceAccount, row.AvailabilityGroups }
            .Concat(row.Tags)
            .Any(field => field.Contains(text, StringComparison.OrdinalIgnoreCase));

    static IEnumerable<InstanceGridRow> Sort(IEnumerable<InstanceGridRow> rows, InstanceQuery q)
    {
        var ordered = q.Sort switch
        {
            // Ascending status means worst first: the order a DBA works through.
            GridColumn.Status => By(rows, r => DailyComplianceSeries.Badness(r.Status) * 2 + (r.IsStale ? 1 : 0), !q.Descending),
            GridColumn.Environment => By(rows, r => r.Environment, q.Descending),
            GridColumn.Owner => By(rows, r => r.Owner, q.Descending),
            GridColumn.Version => By(rows, r => r.MajorVersion, q.Descending),
            GridColumn.Ifi => By(rows, r => r.IfiText, q.Descending),
            GridColumn.TimeLost => By(rows, r => r.TimeLost30Days, q.Descending),
            GridColumn.Restore => By(rows, r => r.RestoreMinutes, q.Descending),
            GridColumn.LastPoll => By(rows, r => r.LastPollAt ?? DateTimeOffset.MinValue, q.Descending),
            _ => By(rows, r => r.Name, q.Descending),
        };
        // Ties by name, so a page does not reshuffle when live refresh re-renders it.
        return ordered.ThenBy(r => r.Name, StringComparer.OrdinalIgnoreCase).ThenBy(r => r.Id);
    }

    static IOrderedEnumerable<InstanceGridRow> By<T>(IEnumerable<InstanceGridRow> rows, Func<InstanceGridRow, T> key, bool descending)
    {
        var comparer = typeof(T) == typeof(string) ? (IComparer<T>)StringComparer.OrdinalIgnoreCase : Comparer<T>.Default;
        return descending ? rows.OrderByDescending(key, comparer) : rows.OrderBy(key, comparer);
    }

    static bool Same(string a, string b) => string.Equals(a, b, StringComparison.OrdinalIgnoreCase);
}
