using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Files;
using IfiDashboard.Compliance.Summary;
using IfiDashboard.Compliance.Timeline;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Assessment;

/// <summary>What only the instance page needs, read from the store on demand.</summary>
public sealed record InstanceDetail
{
    public required InstanceAssessment Assessment { get; init; }
    public required IReadOnlyList<ServiceInfo> Services { get; init; }
    public required IReadOnlyList<FileIfiResult> Files { get; init; }
    /// <summary>The growth events of the window the page asked for, newest first, each with its zeroing verdict.</summary>
    public required GrowthHistory Growth { get; init; }
    public required IReadOnlyList<TimelineChange> Timeline { get; init; }
    /// <summary>
    /// Why a timeline change seen by one poll disagrees with the instance's recent history (no restart in between,
    /// another collector), by the poll's snapshot id and the change's kind; changes that agree are absent.
    /// </summary>
    public IReadOnlyDictionary<(Guid SnapshotId, TimelineChangeKind Kind), string> Doubts { get; init; } =
        new Dictionary<(Guid, TimelineChangeKind), string>();
    public required IReadOnlyList<PollRow> Polls { get; init; }
    /// <summary>The probes of the latest poll, with their outcome and message.</summary>
    public required IReadOnlyList<ProbeOutcome> LastProbes { get; init; }
    public string? DefaultTrace { get; init; }
    /// <summary>The fleet's view of the availability groups this instance hosts a replica of.</summary>
    public IReadOnlyList<AvailabilityGroupSummary> AvailabilityGroups { get; init; } = [];
}

public interface IInstanceDetails
{
    Task<InstanceDetail?> GetAsync(long instanceId, GrowthWindow growthWindow, CancellationToken cancellationToken);
}
