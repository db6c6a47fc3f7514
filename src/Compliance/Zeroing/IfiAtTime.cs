using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Zeroing;

/// <summary>The instance's IFI flag at a past moment, and how sure we are of it.</summary>
public sealed record IfiAtTime(IfiState State, IfiEvidence Evidence)
{
    // Asked once per growth event with few distinct answers: shared instances, not an allocation per event.
    static readonly IfiAtTime[] Shared =
        (from state in Enum.GetValues<IfiState>() from evidence in Enum.GetValues<IfiEvidence>()
         select new IfiAtTime(state, evidence)).ToArray();

    public bool IsAssumed => Evidence == IfiEvidence.AssumedCurrent;

    /// <summary>The shared value for a defined state and evidence; a new one for anything else.</summary>
    public static IfiAtTime Of(IfiState state, IfiEvidence evidence)
    {
        foreach (var shared in Shared)
            if (shared.State == state && shared.Evidence == evidence)
                return shared;
        return new IfiAtTime(state, evidence);
    }
}

public enum IfiEvidence
{
    /// <summary>
    /// A poll at or after the moment saw the same service run (started at or before the moment). The privilege is
    /// read at service start, so the flag cannot have changed within that run.
    /// </summary>
    SameServiceRun,

    /// <summary>The last poll before and the first poll after the moment agree.</summary>
    BracketingPolls,

    /// <summary>History does not cover the moment: today's state is used in its place.</summary>
    AssumedCurrent,

    /// <summary>
    /// The moment came before the earliest service run any poll saw: the state then is unknown. Today's state would
    /// make a fix rewrite the past (time lost before it would vanish), so it does not stand in here.
    /// </summary>
    BeforeFirstObservedStart,
}
