using IfiDashboard.Compliance.Facts;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Zeroing;

/// <summary>Answers "was IFI on when this happened?" from an instance's polls.</summary>
public sealed class IfiHistory
{
    readonly IReadOnlyList<PollObservation> knownPolls;
    readonly IfiState current;

    /// <param name="polls">Polls in any order; those that could not read IFI are ignored.</param>
    /// <param name="current">The fallback when history does not cover a moment.</param>
    public IfiHistory(IEnumerable<PollObservation> polls, IfiState current)
    {
        knownPolls = polls
            .Where(p => p.Ifi != IfiState.Unknown)
            .OrderBy(p => p.PolledAt)
            .ToList();
        this.current = current;
    }

    public IfiAtTime At(DateTimeOffset moment)
    {
        // The earliest poll whose service run already covered the moment is the most direct witness.
        var sameRun = knownPolls.FirstOrDefault(p =>
            p.ServiceStartedAt is { } started && started <= moment && moment <= p.PolledAt);
        if (sameRun is not null)
            return IfiAtTime.Of(sameRun.Ifi, IfiEvidence.SameServiceRun);

        var before = knownPolls.LastOrDefault(p => p.PolledAt <= moment);
        var after = knownPolls.FirstOrDefault(p => p.PolledAt >= moment);
        // Two polls that agree around the moment: a change and a change back between them would take two restarts
        // we did not see. Accepted as known, and labelled so, rather than thrown away.
        if (before is not null && after is not null && before.Ifi == after.Ifi)
            return IfiAtTime.Of(before.Ifi, IfiEvidence.BracketingPolls);

        // Before the earliest run a poll saw (its start, or the poll itself when the start is not known).
        if (knownPolls.Count > 0 && moment < (knownPolls[0].ServiceStartedAt ?? knownPolls[0].PolledAt))
            return IfiAtTime.Of(IfiState.Unknown, IfiEvidence.BeforeFirstObservedStart);

        return IfiAtTime.Of(current, IfiEvidence.AssumedCurrent);
    }
}
