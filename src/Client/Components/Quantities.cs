using System.Globalization;

namespace IfiDashboard.Client.Components;

/// <summary>
/// Durations and sizes as a DBA reads them. Invariant culture: the same figures appear in exports and in the
/// change-advisory meeting, whatever the server's locale.
/// </summary>
public static class Quantities
{
    static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>"0 s", "0.8 s", "11.6 s", "4 min 05 s", "2 h 03 min", "3 d 4 h".</summary>
    public static string Duration(TimeSpan value) => Duration(value.TotalSeconds);

    public static string Duration(double seconds)
    {
        if (seconds <= 0) return "0 s";
        if (seconds < 10) return seconds.ToString("0.0", Invariant) + " s";
        if (seconds < 60) return Math.Round(seconds).ToString("0", Invariant) + " s";
        var span = TimeSpan.FromSeconds(Math.Round(seconds));
        if (span.TotalHours < 1) return $"{span.Minutes} min {span.Seconds:00} s";
        if (span.TotalDays < 1) return $"{(int)span.TotalHours} h {span.Minutes:00} min";
        return $"{(int)span.TotalDays} d {span.Hours} h";
    }

    /// <summary>Binary units, as SQL Server sizes files: "64 MB", "1.5 GB", "200 GB".</summary>
    public static string Bytes(double bytes)
    {
        string[] units = ["B", "KB", "MB", "GB", "TB", "PB"];
        var unit = 0;
        while (Math.Abs(bytes) >= 1024 && unit < units.Length - 1)
        {
            bytes /= 1024;
            unit++;
        }
        var format = unit == 0 || Math.Abs(bytes) >= 10 ? "0" : "0.#";
        return bytes.ToString(format, Invariant) + " " + units[unit];
    }

    public static string Minutes(double minutes) =>
        minutes.ToString(minutes < 100 ? "0.0" : "#,0", Invariant) + " min";

    public static string Percent(double? percent) =>
        percent is { } p ? p.ToString("0.0", Invariant) + " %" : "—";

    public static string Count(int value) => value.ToString("#,0", Invariant);

    /// <summary>"1 row", "1,000 rows": the count and an English noun that takes an s.</summary>
    public static string Plural(int count, string noun) => $"{Count(count)} {noun}{(count == 1 ? "" : "s")}";

    /// <summary>UTC, to the minute: the dashboard's one clock.</summary>
    public static string Moment(DateTimeOffset? at) =>
        at?.UtcDateTime.ToString("yyyy-MM-dd HH:mm 'UTC'", Invariant) ?? "never";

    public static string Iso(DateTimeOffset? at) => at?.ToString("O", Invariant) ?? "";
}
