namespace IfiDashboard.Compliance.Timeline;

public enum TimelineChangeKind
{
    IfiFlag,
    ServiceAccount,
    ServiceStart,
    /// <summary>The instance's role in an availability group changed: Before and After are "group=ROLE".</summary>
    AvailabilityFailover,
    /// <summary>A failover cluster instance moved to another node: Before and After are the owner nodes.</summary>
    ClusterOwnerMove,
}

/// <summary>
/// A change between two successive polls that could read the value. <see cref="SeenAt"/> and
/// <see cref="SeenBySnapshotId"/> name the poll that first saw the new value; the change itself happened between
/// the previous such poll and that one.
/// </summary>
public sealed record TimelineChange
{
    public required long InstanceId { get; init; }
    public required TimelineChangeKind Kind { get; init; }
    public required string Before { get; init; }
    public required string After { get; init; }
    public required DateTimeOffset SeenAt { get; init; }
    public required Guid SeenBySnapshotId { get; init; }

    /// <summary>
    /// For IFI and account changes: the new service start time when the same poll also saw a restart. IFI and the
    /// account only take effect at service start, so this is when the change really happened.
    /// </summary>
    public DateTimeOffset? AfterRestartAt { get; init; }

    public bool CoincidesWithRestart => AfterRestartAt is not null;
}
