using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Assessment;

/// <summary>One stored poll of an instance, for its recent-polls history.</summary>
public sealed record PollRow(
    long Id,
    Guid SnapshotId,
    long InstanceId,
    string CollectorName,
    DateTimeOffset StartedAt,
    DateTimeOffset FinishedAt,
    OutcomeClass Outcome,
    string? Message,
    IfiState IfiState,
    string? IfiUnknownReason,
    bool IsGood);
