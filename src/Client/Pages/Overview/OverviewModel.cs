using System.Runtime.CompilerServices;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Summary;
using IfiDashboard.Client.Components;
using IfiDashboard.Client.Pages.Instances;

namespace IfiDashboard.Client.Pages.Overview;

/// <summary>What the overview shows, derived from one fleet assessment.</summary>
public sealed record OverviewModel
{
    public const int TopCount = 10;

    public required FleetAssessment Fleet { get; init; }
    public required StatusCounts Counts { get; init; }
    /// <summary>Compliance by desired state, environment, owner and version: each sums to <see cref="Counts"/>.</summary>
    public required IReadOnlyList<Breakdown> Breakdowns { get; init; }
    /// <summary>Every instance to fix, first to fix first (<see cref="FixFirst"/>); the page shows the top <see cref="TopCount"/>.</summary>
    public required IReadOnlyList<InstanceAssessment> ToFix { get; init; }
    public required IReadOnlyList<InstanceAssessment> Unknown { get; init; }
    public required IReadOnlyList<InstanceAssessment> Stale { get; init; }
    public required BusinessCase BusinessCase { get; init; }

    public int Total => Fleet.Instances.Count;
    public bool FirstRoundRunning => Fleet.Polled < Total;

    // One model per assessment: it is rebuilt about once a minute, while the page may be requested far more often.
    // Lazy, so that requests arriving together derive it once and the others wait for it, not each again.
    static readonly ConditionalWeakTable<FleetAssessment, Lazy<OverviewModel>> Models = new();

    static Lazy<OverviewModel> Derivation(FleetAssessment fleet) => Models.GetValue(fleet, f => new(() => From(f)));

    /// <summary>When a page last asked for a model (<see cref="Environment.TickCount64"/>); 0 for never.</summary>
    static long _wantedAt;

    /// <summary>The model of this assessment, derived once and shared by every request that renders it.</summary>
    public static OverviewModel For(FleetAssessment fleet)
    {
        Interlocked.Exchange(ref _wantedAt, Environment.TickCount64);
        return Derivation(fleet).Value;
    }

    /// <summary>
    /// Derives this assessment's model ahead of the pages when one was asked for within <paramref name="recently"/>:
    /// at 100,000 instances deriving it is work in the order of the fleet (counts, groupings, the fix-first ranking
    /// over every database, about 130 ms), which the first request after each assessment otherwise pays. A server
    /// nobody opens the overview of derives nothing.
    /// </summary>
    /// <returns>Whether it derived (or already had) the model.</returns>
    public static bool Prepare(FleetAssessment fleet, TimeSpan recently)
    {
        var wantedAt = Interlocked.Read(ref _wantedAt);
        if (wantedAt == 0 || Environment.TickCount64 - wantedAt > (long)recently.TotalMilliseconds)
            return false;
        _ = Derivation(fleet).Value;
        return true;
    }

    /// <summary>Whether this assessment's model has been derived.</summary>
    public static bool IsDerived(FleetAssessment fleet) => Models.TryGetValue(fleet, out var model) && model.IsValueCreated;

    public static OverviewModel From(FleetAssessment fleet)
    {
        var assessed = fleet.Instances.Select(i => new AssessedInstance(i.Facts, i.Compliance)).ToList();
        return new OverviewModel
        {
            Fleet = fleet,
            Counts = FleetSummaries.Count(assessed),
            Breakdowns =
            [
                new("desired", "Desired state", FleetSummaries.GroupBy(assessed, i => [i.Compliance.Policy.Desired.ToString()])
                    .OrderBy(g => Enum.Parse<DesiredState>(g.Key))
                    .Select(g => new BreakdownRow(g.Key, StatusText.Desired(Enum.Parse<DesiredState>(g.Key)), g.Counts, null))
                    .ToList()),
                new("environment", "Environment", FleetSummaries.ByEnvironment(assessed)
                    .Select(g => Row(g, g.Key.Length == 0 ? null : new InstanceQuery { Environment = g.Key })).ToList()),
                new("owner", "Owner", FleetSummaries.ByOwner(assessed)
                    .Select(g => Row(g, new InstanceQuery { Owner = g.Key })).ToList()),
                new("version", "Version", FleetSummaries.ByMajorVersion(assessed)
                    .Select(g => Row(g, VersionFilter(fleet, g))).ToList()),
            ],
            ToFix = FixFirst.Rank(fleet.Instances, i => new FixFigures(i.Registration.Id, i.Registration.Name,
                i.Registration.Environment, i.Compliance.Status, i.TimeLost.Last30Days, i.Restore.Slowest?.ExtraSeconds ?? 0)),
            Unknown = fleet.Instances.Where(i => i.Compliance.Status == ComplianceStatus.Unknown).ToList(),
            Stale = fleet.Instances.Where(i => i.Compliance.IsStale).ToList(),
            BusinessCase = BusinessCase.Build(fleet.Instances, fleet.Last30Days),
        };
    }

    static BreakdownRow Row(StatusGroup group, InstanceQuery? grid) => new(group.Key, group.Key, group.Counts, grid?.ToUrl());

    /// <summary>
    /// The grid filters by major version alone: it shows a version's group only when no instance of another group
    /// (an Azure platform reports a major version too) has the same major.
    /// </summary>
    static InstanceQuery? VersionFilter(FleetAssessment fleet, StatusGroup group)
    {
        var majors = fleet.Instances.Where(i => FleetSummaries.VersionKey(i.Facts) == group.Key).Select(i => i.Facts.MajorVersion).Distinct().ToList();
        return majors is [var major] && major > 0 && fleet.Instances.Count(i => i.Facts.MajorVersion == major) == group.Counts.Total
            ? new InstanceQuery { Version = major }
            : null;
    }
}

/// <summary>Compliance counted per group of one kind (environment, owner, ...): the groups sum to the fleet.</summary>
public sealed record Breakdown(string Kind, string KeyHeading, IReadOnlyList<BreakdownRow> Rows);

/// <param name="GridHref">The fleet grid filtered to exactly this group; null where the grid has no such filter.</param>
public sealed record BreakdownRow(string Key, string Label, StatusCounts Counts, string? GridHref);
