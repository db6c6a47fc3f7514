using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Files;

namespace IfiDashboard.Compliance.Zeroing;

/// <summary>One growth event judged: whether it was zeroed, and whether IFI would have saved that time.</summary>
public sealed record GrowthEventAssessment
{
    public required long InstanceId { get; init; }
    public required GrowthEventFacts Event { get; init; }
    public required GrowthZeroing Zeroing { get; init; }
    public required FileIfiDecision FileIfi { get; init; }

    /// <summary>The instance's IFI flag when the event happened, with its evidence.</summary>
    public required IfiAtTime InstanceIfi { get; init; }

    /// <summary>The event's whole duration when it was zeroed (any kind), else 0.</summary>
    public long ZeroingMicroseconds => Zeroing is GrowthZeroing.DataZeroedWithoutIfi or GrowthZeroing.DataZeroedByTde
        or GrowthZeroing.DataZeroedByPolicy or GrowthZeroing.LogZeroed
        ? Event.SafeDurationMicroseconds
        : 0;

    /// <summary>Zeroing that IFI would have saved: data-file growth without IFI and without TDE.</summary>
    public long TimeLostMicroseconds => Zeroing == GrowthZeroing.DataZeroedWithoutIfi ? Event.SafeDurationMicroseconds : 0;

    /// <summary>The file's data was written out as zeroes: a sample of the volume's zeroing speed.</summary>
    public bool IsDataZeroingSample => Zeroing is GrowthZeroing.DataZeroedWithoutIfi or GrowthZeroing.DataZeroedByTde
        or GrowthZeroing.DataZeroedByPolicy;
}
