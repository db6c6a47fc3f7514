using IfiDashboard.Compliance.Files;

namespace IfiDashboard.Compliance.Restore;

/// <summary>How long the next autogrowth of a data file will hold up the writes that triggered it.</summary>
public sealed record FileGrowthStall
{
    public required long InstanceId { get; init; }
    public required string InstanceName { get; init; }
    public required int DatabaseId { get; init; }
    public required string DatabaseName { get; init; }
    public required string LogicalName { get; init; }
    public required FileIfiDecision Ifi { get; init; }

    /// <summary>Null for a file with growth 0: it does not autogrow.</summary>
    public required long? IncrementBytes { get; init; }

    /// <summary>Null for a file that does not autogrow; 0 with effective IFI.</summary>
    public required double? StallSeconds { get; init; }

    public required bool RateAssumed { get; init; }

    /// <summary>Free bytes on the file's volume when polled (sys.dm_os_volume_stats); null when not read.</summary>
    public long? VolumeAvailableBytes { get; init; }

    /// <summary>The next growth needs more than its volume had free when polled: it will fail, not stall.</summary>
    public bool OutgrowsVolume => IncrementBytes > VolumeAvailableBytes;
}
