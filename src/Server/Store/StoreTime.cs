using System.Globalization;

namespace IfiDashboard.Server.Store;

/// <summary>
/// Times are stored as fixed-width ISO-8601 UTC text, so that comparing the text (in indexes, in
/// <c>next_poll_at &lt;= @now</c>) orders them exactly as the instants they stand for.
/// </summary>
internal static class StoreTime
{
    const string Format = "yyyy-MM-dd'T'HH:mm:ss.fffffff'Z'";

    public static string ToText(DateTimeOffset value) =>
        value.UtcDateTime.ToString(Format, CultureInfo.InvariantCulture);

    public static string? ToText(DateTimeOffset? value) => value is { } v ? ToText(v) : null;

    public static DateTimeOffset Parse(string text) =>
        DateTimeOffset.ParseExact(text, Format, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal);

    public static DateTimeOffset? ParseNullable(string? text) => text is null ? null : Parse(text);

    /// <summary>A time as a server's own clock recorded it (trace, msdb): no zone, fixed width, so it compares as text.</summary>
    public static string ServerLocalText(DateTime value) =>
        value.ToString("yyyy-MM-dd'T'HH:mm:ss.fffffff", CultureInfo.InvariantCulture);
}
