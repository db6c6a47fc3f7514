namespace IfiDashboard.Compliance.Facts;

/// <summary>One row of sys.master_files. Sizes and fixed growth are in 8-KB pages.</summary>
public sealed record DatabaseFileFacts
{
    public required int DatabaseId { get; init; }
    public required string DatabaseName { get; init; }
    public required string LogicalName { get; init; }
    public required string PhysicalPath { get; init; }
    public required FileType Type { get; init; }
    public required long SizePages { get; init; }

    /// <summary>Pages, or a percentage when <see cref="IsPercentGrowth"/>; 0 means the file does not grow.</summary>
    public long Growth { get; init; }

    public bool IsPercentGrowth { get; init; }

    /// <summary>The volume the collector read the file to be on (sys.dm_os_volume_stats); null when not read.</summary>
    public FileVolumeFacts? Volume { get; init; }

    public long SizeBytes => Pages.ToBytes(SizePages);

    /// <summary>
    /// Pages the next autogrowth adds, or null for a fixed-size file. Percent growth is taken of the current size,
    /// rounded down to whole pages.
    /// </summary>
    public long? NextGrowthPages => Growth <= 0
        ? null
        : IsPercentGrowth ? SizePages * Growth / 100 : Growth;
}

/// <summary>A volume as sys.dm_os_volume_stats reported it when polled: where it is mounted, its size and free bytes.</summary>
public sealed record FileVolumeFacts(string MountPoint, long TotalBytes, long AvailableBytes);
