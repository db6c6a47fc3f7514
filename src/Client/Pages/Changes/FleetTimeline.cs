using IfiDashboard.Compliance.Timeline;

namespace IfiDashboard.Client.Pages.Changes;

/// <summary>
/// The instance timeline across the fleet: IFI lost or gained, service account changes and restarts, built from the
/// same polls and by the same rules as each instance page's timeline. Implemented by the store.
/// </summary>
public interface IFleetTimeline
{
    /// <summary>Changes first seen at or after <paramref name="since"/>, newest first, of every instance in the store.</summary>
    Task<IReadOnlyList<TimelineChange>> ReadAsync(DateTimeOffset since, CancellationToken cancellationToken);
}
