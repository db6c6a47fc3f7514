namespace IfiDashboard.Compliance.Zeroing;

/// <summary>
/// Adds growth events up into <see cref="ZeroingTotals"/> in place. The totals are an immutable record; building them
/// by copying one per event allocated a record per event, per database and per window: most of an assessment's
/// garbage at a million events.
/// </summary>
public sealed class ZeroingTally
{
    int _growthEvents;
    long _growthMicroseconds;
    int _timeLostEvents;
    long _timeLostMicroseconds;
    long _timeLostAssumedMicroseconds;
    long _bytesZeroedWithoutIfi;
    long _tdeZeroingMicroseconds;
    long _policyCostMicroseconds;
    long _logZeroingMicroseconds;
    int _logGrowthsNotZeroed;
    long _ifiUnknownMicroseconds;

    public void Add(GrowthEventAssessment a)
    {
        var duration = a.Event.SafeDurationMicroseconds;
        _growthEvents++;
        _growthMicroseconds += duration;
        switch (a.Zeroing)
        {
            case GrowthZeroing.DataZeroedWithoutIfi:
                _timeLostEvents++;
                _timeLostMicroseconds += duration;
                if (a.InstanceIfi.IsAssumed) _timeLostAssumedMicroseconds += duration;
                _bytesZeroedWithoutIfi += a.Event.GrowthBytes;
                break;
            case GrowthZeroing.DataZeroedByPolicy:
                _policyCostMicroseconds += duration;
                break;
            case GrowthZeroing.DataZeroedByTde:
                _tdeZeroingMicroseconds += duration;
                break;
            case GrowthZeroing.LogZeroed:
                _logZeroingMicroseconds += duration;
                break;
            case GrowthZeroing.LogNotZeroed:
                _logGrowthsNotZeroed++;
                break;
            case GrowthZeroing.IfiUnknown:
                _ifiUnknownMicroseconds += duration;
                break;
        }
    }

    // Every instance without growth in a window has these totals; one shared immutable copy instead of one each.
    static readonly ZeroingTotals NoGrowth = new();

    public ZeroingTotals ToTotals() => _growthEvents == 0 ? NoGrowth : new()
    {
        GrowthEvents = _growthEvents,
        GrowthMicroseconds = _growthMicroseconds,
        TimeLostEvents = _timeLostEvents,
        TimeLostMicroseconds = _timeLostMicroseconds,
        TimeLostAssumedMicroseconds = _timeLostAssumedMicroseconds,
        BytesZeroedWithoutIfi = _bytesZeroedWithoutIfi,
        TdeZeroingMicroseconds = _tdeZeroingMicroseconds,
        PolicyCostMicroseconds = _policyCostMicroseconds,
        LogZeroingMicroseconds = _logZeroingMicroseconds,
        LogGrowthsNotZeroed = _logGrowthsNotZeroed,
        IfiUnknownMicroseconds = _ifiUnknownMicroseconds,
    };
}
