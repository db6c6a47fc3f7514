using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Summary;

namespace IfiDashboard.Server.Api.Compliance;

/// <summary>The fleet summary, grouped by the engine's own summaries (<see cref="FleetSummaries"/>).</summary>
internal static class ComplianceSummaries
{
    public static ComplianceSummary Build(FleetAssessment fleet)
    {
        var assessed = fleet.Instances.Select(i => new AssessedInstance(i.Facts, i.Compliance)).ToList();
        static IReadOnlyList<StatusGroupResource> Groups(IReadOnlyList<StatusGroup> groups) =>
            groups.Select(StatusGroupResource.From).ToList();
        int Desired(DesiredState state) => fleet.Instances.Count(i => i.Compliance.Policy.Desired == state);

        return new ComplianceSummary(
            fleet.ComputedAt,
            fleet.LastPollAt,
            fleet.PolicyVersion,
            fleet.Instances.Count,
            fleet.Polled,
            StatusCountsResource.From(FleetSummaries.Count(assessed)),
            new DesiredStateCounts(Desired(DesiredState.Required), Desired(DesiredState.Forbidden), Desired(DesiredState.NotApplicable)),
            Groups(FleetSummaries.ByEnvironment(assessed)),
            Groups(FleetSummaries.ByTag(assessed)),
            Groups(FleetSummaries.ByMajorVersion(assessed)),
            Groups(FleetSummaries.ByOwner(assessed)),
            new TimeLostWindows(TimeLostWindow.Of(fleet.Last7Days), TimeLostWindow.Of(fleet.Last30Days), TimeLostWindow.Of(fleet.Last90Days)));
    }
}
