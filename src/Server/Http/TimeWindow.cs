using System.Globalization;
using System.Text.RegularExpressions;

namespace IfiDashboard.Server.Http;

/// <summary>
/// A report window [from, to) from the <c>from</c> and <c>to</c> query parameters: ISO-8601 dates or times (a date is
/// midnight UTC, a time without an offset is UTC). <c>to</c> defaults to the assessment's time and <c>from</c> to 30
/// days before <c>to</c>; the window is at most 366 days, so one request never reads unbounded history.
/// </summary>
internal static partial class TimeWindow
{
    public const int DefaultDays = 30;
    public const int MaxDays = 366;

    [GeneratedRegex(@"^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,7})?)?(?:Z|[+-]\d{2}:\d{2})?)?\z")]
    private static partial Regex Iso8601();

    /// <summary>The explicit bounds, checked for form only (no store or assessment is needed for that).</summary>
    public static (DateTimeOffset? From, DateTimeOffset? To) Read(IQueryCollection query, FieldErrors errors) =>
        (Moment(query, "from", errors), Moment(query, "to", errors));

    /// <summary>The window with its defaults applied, or null with a message naming the bound at fault.</summary>
    public static (DateTimeOffset From, DateTimeOffset To)? Resolve((DateTimeOffset? From, DateTimeOffset? To) bounds,
        DateTimeOffset defaultTo, FieldErrors errors)
    {
        var end = bounds.To ?? defaultTo;
        if (bounds.From is null && end < DateTimeOffset.MinValue.AddDays(DefaultDays))
        {
            errors.Add("to", "Too early to take the default 30-day window before it; give from as well.");
            return null;
        }
        var start = bounds.From ?? end.AddDays(-DefaultDays);
        if (start >= end)
            errors.Add("from", bounds.To is null
                ? "Must be earlier than to (which defaults to the latest assessment's time)."
                : "Must be earlier than to.");
        else if (end - start > TimeSpan.FromDays(MaxDays))
            errors.Add("from", $"The window from 'from' to 'to' must not exceed {MaxDays} days.");
        return errors.Any ? null : (start, end);
    }

    /// <summary>One ISO-8601 moment (a query parameter), or null with a message naming it.</summary>
    public static DateTimeOffset? Moment(IQueryCollection query, string name, FieldErrors errors)
    {
        if (QueryValues.Single(query, name, errors) is not { } text)
            return null;
        if (text.Length <= 40 && Iso8601().IsMatch(text)
            && DateTimeOffset.TryParse(text, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var value))
            return value.ToUniversalTime();
        errors.Add(name, "An ISO-8601 date or time, e.g. 2025-05-01 or 2025-05-01T08:00:00Z (send '+' in an offset as %2B).");
        return null;
    }
}
