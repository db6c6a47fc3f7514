using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>One instance of the synthetic fleet: inventory, what its polls see, and how many growth events it had.</summary>
internal sealed record SyntheticInstance
{
    public required int Index { get; init; }
    public required string Name { get; init; }
    public required string Host { get; init; }
    public string? InstanceName { get; init; }
    public required string Environment { get; init; }
    public string? Owner { get; init; }
    public required IReadOnlyList<string> Tags { get; init; }
    public required SqlVersion Version { get; init; }
    public bool Linux { get; init; }
    public bool AzureSqlDatabase { get; init; }
    /// <summary>IFI as the latest good poll sees it.</summary>
    public bool IfiEnabled { get; init; }
    /// <summary>When set, IFI was the other way round before a restart at this time (with another service account).</summary>
    public DateTimeOffset? IfiFlippedAt { get; init; }
    /// <summary>How the latest poll failed, if it did; earlier polls were good.</summary>
    public OutcomeClass? LatestFailure { get; init; }
    public required string ServiceAccount { get; init; }
    public required IReadOnlyList<DatabaseFileInfo> Files { get; init; }
    public required IReadOnlySet<int> EncryptedDatabases { get; init; }
    public required double ZeroingBytesPerSecond { get; init; }
    public required int EventCount { get; init; }

    public bool IfiAt(DateTimeOffset time) => IfiFlippedAt is { } flipped && time < flipped ? !IfiEnabled : IfiEnabled;
}

/// <summary>A SQL Server build as SERVERPROPERTY reports it.</summary>
internal sealed record SqlVersion(string ProductVersion, string ProductLevel, string? UpdateLevel)
{
    public int Major => ProductVersions.Major(ProductVersion);

    /// <summary>Builds before 2012 SP4 / 2014 SP3 / 2016 SP1 have no IFI column in sys.dm_server_services.</summary>
    public bool HasIfiColumn => Major >= 12;
}
