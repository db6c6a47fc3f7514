using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Store.Ingestion;

/// <summary>A snapshot as stored: its poll row id, whether it read the services and whether it was a good poll.</summary>
internal sealed record StoredSnapshot(InstanceSnapshot Snapshot, long PollId)
{
    /// <summary>
    /// The poll read sys.dm_server_services: its engine row (service account, start time) is current, also on a build
    /// whose DMV has no IFI column (the services probe then says BuildTooOld about the column, not about the rows).
    /// </summary>
    public bool ReadServices => Snapshot.Probes.Any(p => p.Probe == ProbeNames.Services && p.Outcome is OutcomeClass.Ok or OutcomeClass.BuildTooOld);

    /// <summary>
    /// A good poll determined the IFI state, from the DMV or, on builds without its column, from the start-up line:
    /// it moves the timeline and the last-good time that staleness is measured from.
    /// </summary>
    public bool IsGood => IsGoodPoll(Snapshot);

    public static bool IsGoodPoll(InstanceSnapshot snapshot) => IfiObservation.From(snapshot).State != IfiState.Unknown;
}
