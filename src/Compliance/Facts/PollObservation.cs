using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Facts;

/// <summary>
/// What one poll saw of the engine service: the history the timeline and "IFI at the time of an event" are built
/// from. Fields a failed poll could not read are null (or <see cref="IfiState.Unknown"/>).
/// </summary>
public sealed record PollObservation
{
    public required Guid SnapshotId { get; init; }
    public required DateTimeOffset PolledAt { get; init; }
    public IfiState Ifi { get; init; } = IfiState.Unknown;
    public string? ServiceAccount { get; init; }
    public DateTimeOffset? ServiceStartedAt { get; init; }
    /// <summary>The instance's availability group roles as the poll read them (<see cref="AvailabilityGroupInfo.RolesText"/>); null when not read.</summary>
    public string? AvailabilityRoles { get; init; }
    /// <summary>A failover cluster instance's owner node as the poll read it; null when not read or not clustered.</summary>
    public string? ClusterOwner { get; init; }
}
