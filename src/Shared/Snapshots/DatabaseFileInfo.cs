namespace IfiDashboard.Shared.Snapshots;

/// <summary>One row of sys.master_files. Sizes and growth are in 8-KB pages unless <see cref="IsPercentGrowth"/>.</summary>
public sealed record DatabaseFileInfo
{
    public required int DatabaseId { get; init; }
    public required string DatabaseName { get; init; }
    public required int FileId { get; init; }
    public required string LogicalName { get; init; }
    public required string PhysicalName { get; init; }
    /// <summary>0 ROWS, 1 LOG, 2 FILESTREAM, 4 FULLTEXT.</summary>
    public required byte Type { get; init; }
    public string? StateDesc { get; init; }
    public required int SizePages { get; init; }
    /// <summary>0 no growth, -1 unlimited, 268435456 log capped at 2 TB.</summary>
    public int MaxSizePages { get; init; }
    /// <summary>Pages, or percent when <see cref="IsPercentGrowth"/>; 0 is fixed size.</summary>
    public int Growth { get; init; }
    public bool IsPercentGrowth { get; init; }
    /// <summary>The volume the file lives on (sys.dm_os_volume_stats); null when not read.</summary>
    public FileVolumeInfo? Volume { get; init; }

    public bool IsData => Type == 0;
    public bool IsLog => Type == 1;
}

/// <summary>
/// One row of sys.dm_os_volume_stats: the volume a file lives on, which a mount point in a folder of a drive
/// (<c>D:\Data\Sales\</c>) makes a volume of its own.
/// </summary>
public sealed record FileVolumeInfo
{
    /// <summary>Where the volume is mounted, as SQL Server reports it: "D:\", "D:\Data\Sales\", "/".</summary>
    public required string MountPoint { get; init; }
    /// <summary>The operating system's name of the volume (<c>\\?\Volume{...}\</c>), the same for every mount point of it.</summary>
    public string? VolumeId { get; init; }
    public string? LogicalVolumeName { get; init; }
    public required long TotalBytes { get; init; }
    public required long AvailableBytes { get; init; }
}
