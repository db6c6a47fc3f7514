using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Shared.Compliance.Zeroing;

/// <summary>The instance's IFI flag at a past moment, and how sure we are of it.</summary>
public sealed record IfiAtTime(IfiState State, IfiEvidence Evidence)
{
    public bool IsAssumed => Evidence == IfiEvidence.AssumedCurrent;
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
}
