namespace IfiDashboard.Compliance.Zeroing;

/// <summary>
/// Growth time split by what it was spent on. Durations are microseconds, as the default trace reports them.
/// <see cref="TimeLostMicroseconds"/> is the only figure IFI could have avoided; log and TDE zeroing are kept apart.
/// </summary>
public sealed record ZeroingTotals
{
    public int GrowthEvents { get; init; }
    public long GrowthMicroseconds { get; init; }

    public int TimeLostEvents { get; init; }
    public long TimeLostMicroseconds { get; init; }

    /// <summary>The part of <see cref="TimeLostMicroseconds"/> judged on today's IFI state, for lack of history.</summary>
    public long TimeLostAssumedMicroseconds { get; init; }

    public long BytesZeroedWithoutIfi { get; init; }
    public long TdeZeroingMicroseconds { get; init; }

    /// <summary>Data-file zeroing where policy forbids IFI: what the policy costs, reported apart from time lost.</summary>
    public long PolicyCostMicroseconds { get; init; }
    public long LogZeroingMicroseconds { get; init; }
    public int LogGrowthsNotZeroed { get; init; }

    /// <summary>Growth time of events whose IFI state could not be known: counted nowhere else.</summary>
    public long IfiUnknownMicroseconds { get; init; }

    public TimeSpan TimeLost => TimeSpan.FromMicroseconds(TimeLostMicroseconds);
    public TimeSpan LogZeroing => TimeSpan.FromMicroseconds(LogZeroingMicroseconds);
    public TimeSpan PolicyCost => TimeSpan.FromMicroseconds(PolicyCostMicroseconds);
    public TimeSpan IfiUnknown => TimeSpan.FromMicroseconds(IfiUnknownMicroseconds);

    public static ZeroingTotals Of(IEnumerable<GrowthEventAssessment> assessments)
    {
        var tally = new ZeroingTally();
        foreach (var a in assessments)
            tally.Add(a);
        return tally.ToTotals();
    }

    /// <summary>Totals of two disjoint sets of events, so a fleet can be summed instance by instance.</summary>
    public ZeroingTotals Plus(ZeroingTotals other) => new()
    {
        GrowthEvents = GrowthEvents + other.GrowthEvents,
        GrowthMicroseconds = GrowthMicroseconds + other.GrowthMicroseconds,
        TimeLostEvents = TimeLostEvents + other.TimeLostEvents,
        TimeLostMicroseconds = TimeLostMicroseconds + other.TimeLostMicroseconds,
        TimeLostAssumedMicroseconds = TimeLostAssumedMicroseconds + other.TimeLostAssumedMicroseconds,
        BytesZeroedWithoutIfi = BytesZeroedWithoutIfi + other.BytesZeroedWithoutIfi,
        TdeZeroingMicroseconds = TdeZeroingMicroseconds + other.TdeZeroingMicroseconds,
        PolicyCostMicroseconds = PolicyCostMicroseconds + other.PolicyCostMicroseconds,
        LogZeroingMicroseconds = LogZeroingMicroseconds + other.LogZeroingMicroseconds,
        LogGrowthsNotZeroed = LogGrowthsNotZeroed + other.LogGrowthsNotZeroed,
        IfiUnknownMicroseconds = IfiUnknownMicroseconds + other.IfiUnknownMicroseconds,
    };
}
