using System.Runtime.CompilerServices;
using IfiDashboard.Shared.Compliance.Policy;
using IfiDashboard.Shared.Compliance.Restore;
using IfiDashboard.Shared.Compliance.Status;
using IfiDashboard.Shared.Compliance.Summary;
using IfiDashboard.Shared.Dashboard;

namespace IfiDashboard.Client.Pages.Overview;

/// <summary>What the overview shows, derived from one fleet assessment.</summary>
public sealed record OverviewModel
{
    public const int TopCount = 10;

    public required FleetAssessment Fleet { get; init; }
    public required StatusCounts Counts { get; init; }
    public required IReadOnlyList<StatusGroup> ByDesiredState { get; init; }
    /// <summary>Every instance to fix, first to fix first (<see cref="FixFirst"/>); the page shows the top <see cref="TopCount"/>.</summary>
    public required IReadOnlyList<InstanceAssessment> ToFix { get; init; }
    public required IReadOnlyList<InstanceAssessment> Unknown { get; init; }
    public required IReadOnlyList<InstanceAssessment> Stale { get; init; }
    public required BusinessCase BusinessCase { get; init; }

    public int Total => Fleet.Instances.Count;
    public bool FirstRoundRunning => Fleet.Polled < Total;

    // One model per assessment: it is rebuilt about once a minute, while the page may be requested far more often.
    static readonly ConditionalWeakTable<FleetAssessment, OverviewModel> Models = new();

    /// <summary>The model of this assessment, derived once and shared by every request that renders it.</summary>
    public static OverviewModel For(FleetAssessment fleet) => Models.GetValue(fleet, From);

    public static OverviewModel From(FleetAssessment fleet)
    {
        var assessed = fleet.Instances.Select(i => new AssessedInstance(i.Facts, i.Compliance)).ToList();
        return new OverviewModel
        {
            Fleet = fleet,
            Counts = FleetSummaries.Count(assessed),
            ByDesiredState = FleetSummaries.GroupBy(assessed, i => [i.Compliance.Policy.Desired.ToString()])
                .OrderBy(g => Enum.Parse<DesiredState>(g.Key))
                .ToList(),
            ToFix = FixFirst.Rank(fleet.Instances, i => new FixFigures(i.Registration.Id, i.Registration.Name,
                i.Registration.Environment, i.Compliance.Status, i.TimeLost.Last30Days, SlowestRestore(i)?.ExtraSeconds ?? 0)),
            Unknown = fleet.Instances.Where(i => i.Compliance.Status == ComplianceStatus.Unknown).ToList(),
            Stale = fleet.Instances.Where(i => i.Compliance.IsStale).ToList(),
            BusinessCase = BusinessCase.Build(fleet.Instances, fleet.Last30Days),
        };
    }

    /// <summary>The database whose restore would wait longest on data-file zeroing; null when none would wait.</summary>
    public static DatabaseRestoreRisk? SlowestRestore(InstanceAssessment instance) =>
        RestoreRiskRanking.TopByRestoreTime(instance.Restore.Databases, 1).FirstOrDefault();
}
