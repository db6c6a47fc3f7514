using IfiDashboard.Client.Pages.Changes;
using IfiDashboard.Compliance.Timeline;
using IfiDashboard.Store.Facts;

namespace IfiDashboard.Server.Compliance;

/// <summary>
/// The fleet changes page's source: every instance's timeline from the polls the store keeps for it (those that saw a
/// change, the first and the latest good poll: retention never prunes them), as the instance page builds one.
/// </summary>
public sealed class FleetTimelineReader(FactsReader facts) : IFleetTimeline
{
    public async Task<IReadOnlyList<TimelineChange>> ReadAsync(DateTimeOffset since, CancellationToken cancellationToken)
    {
        // A change in the window may follow a poll before it, so each timeline is built whole and then cut.
        var observations = await facts.ObservationsAsync(null, cancellationToken);
        return observations
            .SelectMany(polls => TimelineBuilder.Build(polls.Key, polls))
            .Where(change => change.SeenAt >= since)
            .OrderByDescending(change => change.SeenAt)
            .ToList();
    }
}
