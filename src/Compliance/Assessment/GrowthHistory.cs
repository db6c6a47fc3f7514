using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Assessment;

/// <summary>How far back the instance page's growth explorer looks; the page's address carries it as its slug.</summary>
public enum GrowthWindow
{
    Day,
    Week,
    Month,
    Quarter,

    /// <summary>Every growth event the store still holds (Retention:GrowthEventDays, 400 days by default).</summary>
    AllKept,
}

public static class GrowthWindows
{
    public static readonly GrowthWindow[] All = [GrowthWindow.Day, GrowthWindow.Week, GrowthWindow.Month, GrowthWindow.Quarter, GrowthWindow.AllKept];

    /// <summary>The instance page's window when its address names none: the compliance report's longest.</summary>
    public const GrowthWindow Default = GrowthWindow.Quarter;

    public static string Slug(this GrowthWindow window) => window switch
    {
        GrowthWindow.Day => "24h",
        GrowthWindow.Week => "7d",
        GrowthWindow.Month => "30d",
        GrowthWindow.Quarter => "90d",
        _ => "all",
    };

    public static string Label(this GrowthWindow window) => window switch
    {
        GrowthWindow.Day => "24 h",
        GrowthWindow.Week => "7 days",
        GrowthWindow.Month => "30 days",
        GrowthWindow.Quarter => "90 days",
        _ => "all kept",
    };

    /// <summary>The window a slug names; the default for none or one not known (an old or mistyped link).</summary>
    public static GrowthWindow Parse(string? slug) =>
        All.FirstOrDefault(w => string.Equals(w.Slug(), slug, StringComparison.OrdinalIgnoreCase), Default);

    /// <summary>The earliest start time the window holds at <paramref name="now"/>; none for every kept event.</summary>
    public static DateTimeOffset? Since(this GrowthWindow window, DateTimeOffset now) => window switch
    {
        GrowthWindow.Day => now.AddDays(-1),
        GrowthWindow.Week => now.AddDays(-7),
        GrowthWindow.Month => now.AddDays(-30),
        GrowthWindow.Quarter => now.AddDays(-90),
        _ => null,
    };
}

public enum GrowthFileKind
{
    Data,
    Log,
}

/// <summary>
/// A growth event's series in the explorer: the file's kind and the instance's IFI flag when it grew (as the store
/// knows it: see <see cref="IfiAtTime"/>), the two things that decide whether the growth was zeroed.
/// </summary>
public readonly record struct GrowthSeries(GrowthFileKind Kind, IfiState Ifi)
{
    /// <summary>Data before log, then IFI off, unknown, on: the time worth acting on first.</summary>
    public static readonly GrowthSeries[] Ordered =
        (from kind in new[] { GrowthFileKind.Data, GrowthFileKind.Log }
         from ifi in new[] { IfiState.Disabled, IfiState.Unknown, IfiState.Enabled }
         select new GrowthSeries(kind, ifi)).ToArray();

    public static GrowthSeries Of(GrowthEventAssessment growth) =>
        new(growth.Event.IsLogGrowth ? GrowthFileKind.Log : GrowthFileKind.Data, growth.InstanceIfi.State);
}

/// <summary>One series' events in the window, summed.</summary>
public sealed record GrowthSeriesTotals(GrowthSeries Series, int Count, long GrowthBytes, long DurationMicroseconds, long MaxDurationMicroseconds);

/// <summary>
/// An instance's growth events in one window: the one projection the growth chart and the growth table both read,
/// so the points drawn and the rows listed are the same events with the same figures.
/// </summary>
public sealed record GrowthHistory
{
    public required GrowthWindow Window { get; init; }
    public required DateTimeOffset From { get; init; }
    public required DateTimeOffset To { get; init; }

    /// <summary>Autogrowth events from <see cref="From"/> on, newest first, each with its zeroing verdict.</summary>
    public required IReadOnlyList<GrowthEventAssessment> Events { get; init; }

    /// <summary>The series that have events, in <see cref="GrowthSeries.Ordered"/> order.</summary>
    public required IReadOnlyList<GrowthSeriesTotals> Series { get; init; }

    /// <summary>
    /// The events of <paramref name="window"/> at <paramref name="now"/>. Every kept event's window starts at the
    /// oldest event (a day before <paramref name="now"/> when there is none); it ends at <paramref name="now"/>, or at
    /// the newest event when a server's clock ran ahead.
    /// </summary>
    public static GrowthHistory Of(GrowthWindow window, DateTimeOffset now, IEnumerable<GrowthEventAssessment> events)
    {
        var since = window.Since(now);
        var shown = events.Where(e => since is null || e.Event.StartTime >= since)
            .OrderByDescending(e => e.Event.StartTime).ToList();
        var series = shown.GroupBy(GrowthSeries.Of)
            .Select(g => new GrowthSeriesTotals(g.Key, g.Count(), g.Sum(e => e.Event.GrowthBytes),
                g.Sum(e => e.Event.SafeDurationMicroseconds), g.Max(e => e.Event.SafeDurationMicroseconds)))
            .OrderBy(t => Array.IndexOf(GrowthSeries.Ordered, t.Series)).ToList();
        var to = shown.Count > 0 && shown[0].Event.StartTime > now ? shown[0].Event.StartTime : now;
        var from = since ?? (shown.Count > 0 ? shown[^1].Event.StartTime : now.AddDays(-1));
        return new GrowthHistory { Window = window, From = from, To = to, Events = shown, Series = series };
    }
}
