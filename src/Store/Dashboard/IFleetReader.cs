using IfiDashboard.Compliance.Assessment;

namespace IfiDashboard.Store.Dashboard;

/// <summary>What the dashboard reads about the fleet; implemented by the store.</summary>
public interface IFleetReader
{
    Task<FleetCounts> CountsAsync(CancellationToken cancellationToken);
    Task<IReadOnlyList<PollRow>> RecentPollsAsync(long instanceId, int max, CancellationToken cancellationToken);
}
