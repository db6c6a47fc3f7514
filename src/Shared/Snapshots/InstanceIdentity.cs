namespace IfiDashboard.Shared.Snapshots;

/// <summary>SERVERPROPERTY values (cast to plain types by the probe) and sys.dm_os_host_info where it exists.</summary>
public sealed record InstanceIdentity
{
    public required string ProductVersion { get; init; }
    public string? ProductLevel { get; init; }
    public string? ProductUpdateLevel { get; init; }
    public required string Edition { get; init; }
    public required int EngineEdition { get; init; }
    public string? MachineName { get; init; }
    public required string ServerName { get; init; }
    public string? InstanceName { get; init; }
    public bool IsClustered { get; init; }
    public int? ProcessId { get; init; }
    public string? HostPlatform { get; init; }
    public string? HostDistribution { get; init; }
    public string? HostRelease { get; init; }

    public int MajorVersion => ProductVersions.Major(ProductVersion);

    /// <summary>Azure SQL Database (5) and Managed Instance (8): IFI cannot be configured there.</summary>
    public bool IsAzurePaas => EngineEdition is 5 or 8;
}
