using System.Globalization;
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
        var limit = DefaultLimit;
        if (Single(query, "limit", errors) is { } limitText
            && (!int.TryParse(limitText, NumberStyles.None, CultureInfo.InvariantCulture, out limit) || limit is < 1 or > MaxLimit))
            errors.Add("limit", $"A whole number from 1 to {MaxLimit}.");

        var includeRetired = false;
        if (Single(query, "includeRetired", errors) is { } retiredText && !bool.TryParse(retiredText, out includeRetired))
            errors.Add("includeRetired", "true or false.");

        long afterId = 0;
        if (Single(query, "cursor", errors) is { } cursor && !PageCursor.TryDecode(cursor, out afterId))
            errors.Add("cursor", "Not a cursor this API handed out; start again without one.");

        var filter = new InstanceListFilter
        {
            Environment = Text(query, "environment", errors),
            Owner = Text(query, "owner", errors),
            Tag = Text(query, "tag", errors),
            Search = Text(query, "q", errors),
            IncludeRetired = includeRetired,
            AfterId = afterId,
            Limit = limit,
        };
        return errors.Any ? null : filter;
    }

    static string? Single(IQueryCollection query, string name, FieldErrors errors)
    {
        if (!query.TryGetValue(name, out var values))
            return null;
        if (values.Count == 1)
            return values[0];
        errors.Add(name, "Give it once.");
        return null;
    }

    static string? Text(IQueryCollection query, string name, FieldErrors errors)
    {
        var value = Single(query, name, errors);
        if (value is null)
            return null;
        if (value.Length is 0 or > FieldRules.MaxTextLength || !FieldRules.IsPlainText(value))
        {
            errors.Add(name, $"1–{FieldRules.MaxTextLength} characters without control characters.");
            return null;
        }
        return value;
    }
}
