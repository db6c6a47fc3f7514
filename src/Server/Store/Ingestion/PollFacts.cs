using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Server.Store.Ingestion;

/// <summary>A snapshot as stored: its poll row id and whether it was a good poll.</summary>
internal sealed record PollFacts(InstanceSnapshot Snapshot, long PollId)
{
    /// <summary>A good poll is one whose services probe succeeded: only it tells the current IFI flag and account.</summary>
    public bool IsGood => IsGoodPoll(Snapshot);

    public static bool IsGoodPoll(InstanceSnapshot snapshot) =>
        snapshot.Probes.Any(p => p.Probe == ProbeNames.Services && p.Outcome == OutcomeClass.Ok);
}
