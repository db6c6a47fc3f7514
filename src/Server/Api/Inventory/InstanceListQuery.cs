using IfiDashboard.Server.Api.Http;
using IfiDashboard.Server.Store.Inventory;

namespace IfiDashboard.Server.Api.Inventory;

/// <summary>
/// The list's query string, parsed by hand so that a bad value is a problem naming the parameter rather than a
/// bare 400 from parameter binding.
/// </summary>
internal static class InstanceListQuery
{
    public const int DefaultLimit = 100;
    public const int MaxLimit = 500;

    public static InstanceListFilter? Parse(IQueryCollection query, FieldErrors errors)
    {
        var limit = QueryValues.Int(query, "limit", 1, MaxLimit, errors) ?? DefaultLimit;
        var includeRetired = QueryValues.Bool(query, "includeRetired", errors) ?? false;

        long afterId = 0;
        if (QueryValues.Single(query, "cursor", errors) is { } cursor && !PageCursor.TryDecode(cursor, out afterId))
            errors.Add("cursor", "Not a cursor this API handed out; start again without one.");

        var filter = new InstanceListFilter
        {
            Environment = QueryValues.Text(query, "environment", errors),
            Owner = QueryValues.Text(query, "owner", errors),
            Tag = QueryValues.Text(query, "tag", errors),
            Search = QueryValues.Text(query, "q", errors),
            IncludeRetired = includeRetired,
            AfterId = afterId,
            Limit = limit,
        };
        return errors.Any ? null : filter;
    }
}
