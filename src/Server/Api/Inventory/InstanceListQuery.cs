using IfiDashboard.Server.Http;
using IfiDashboard.Store.Inventory;

namespace IfiDashboard.Server.Api.Inventory;

/// <summary>
/// The list's query string, parsed by hand so that a bad value is a problem naming the parameter rather than a
/// bare 400 from parameter binding.
/// </summary>
internal static class InstanceListQuery
{
    public const int DefaultLimit = 100;
    public const int MaxLimit = 500;

    /// <summary>The <c>sort</c> parameter's values, as docs/api.md spells them.</summary>
    public static readonly IReadOnlyDictionary<string, InstanceListSort> Sorts = new Dictionary<string, InstanceListSort>(StringComparer.Ordinal)
    {
        ["id"] = InstanceListSort.Id,
        ["name"] = InstanceListSort.Name,
        ["updatedAt"] = InstanceListSort.UpdatedAt,
    };

    public static InstanceListFilter? Parse(IQueryCollection query, FieldErrors errors)
    {
        var limit = QueryValues.Int(query, "limit", 1, MaxLimit, errors) ?? DefaultLimit;
        var includeRetired = QueryValues.Bool(query, "includeRetired", errors) ?? false;

        var sort = InstanceListSort.Id;
        if (QueryValues.Single(query, "sort", errors) is { } sortText && !Sorts.TryGetValue(sortText, out sort))
            errors.Add("sort", $"One of {string.Join(", ", Sorts.Keys)}.");

        InstanceListPosition? after = null;
        if (QueryValues.Single(query, "cursor", errors) is { } cursor && !PageCursor.TryDecode(cursor, sort, out after))
            errors.Add("cursor", "Not a cursor this API handed out for this sort; start again without one.");

        var filter = new InstanceListFilter
        {
            Environment = QueryValues.Text(query, "environment", errors),
            Owner = QueryValues.Text(query, "owner", errors),
            Tag = QueryValues.Text(query, "tag", errors),
            Search = QueryValues.Text(query, "q", errors),
            IncludeRetired = includeRetired,
            UpdatedSince = TimeWindow.Moment(query, "updatedSince", errors),
            Sort = sort,
            After = after,
            Limit = limit,
        };
        return errors.Any ? null : filter;
    }
}
