using IfiDashboard.Client.Components;
using IfiDashboard.Compliance.Timeline;

namespace IfiDashboard.Client.Pages.Changes;

/// <summary>The changes page's filters as they travel in the query string.</summary>
public sealed record ChangesQuery
{
    public const string DaysKey = "days", EnvironmentKey = "env", TagKey = "tag", KindKey = "kind";
    public const string IfiLost = "ifi-lost", IfiGained = "ifi-gained", Account = "account", Restart = "restart",
        Failover = "failover";
    public const int DefaultDays = 7;

    public static readonly IReadOnlyList<(int Days, string Label)> Windows =
        [(1, "Last 24 hours"), (7, "Last 7 days"), (30, "Last 30 days"), (90, "Last 90 days"), (366, "Last year")];

    public static readonly IReadOnlyList<(string Value, string Label)> Kinds =
        [(IfiLost, "IFI lost"), (IfiGained, "IFI gained"), (Account, "Service account"), (Restart, "Restart"),
         (Failover, "Failover")];

    public int Days { get; init; } = DefaultDays;
    public string? Environment { get; init; }
    public string? Tag { get; init; }
    /// <summary>One of <see cref="Kinds"/>, or null for every kind.</summary>
    public string? Kind { get; init; }

    public bool HasInstanceFilters => Environment is not null || Tag is not null;

    /// <summary>Builds a query from raw query-string values, ignoring what does not parse instead of failing the page.</summary>
    public static ChangesQuery Parse(string? days, string? environment, string? tag, string? kind) => new()
    {
        Days = QueryNumber.Count(days) is { } d && Windows.Any(w => w.Days == d) ? d : DefaultDays,
        Environment = string.IsNullOrWhiteSpace(environment) ? null : environment.Trim(),
        Tag = string.IsNullOrWhiteSpace(tag) ? null : tag.Trim(),
        Kind = Kinds.Any(k => k.Value == kind) ? kind : null,
    };

    /// <summary>An IFI change is a loss or a gain: the two a DBA reads differently.</summary>
    public static string KindOf(TimelineChange change) => change.Kind switch
    {
        TimelineChangeKind.IfiFlag => change.After == TimelineBuilder.Flag(Shared.Snapshots.IfiState.Enabled) ? IfiGained : IfiLost,
        TimelineChangeKind.ServiceAccount => Account,
        TimelineChangeKind.AvailabilityFailover or TimelineChangeKind.ClusterOwnerMove => Failover,
        _ => Restart,
    };
}
