namespace IfiDashboard.Shared.Snapshots;

/// <summary>One row of sys.dm_server_services.</summary>
public sealed record ServiceInfo
{
    public required string ServiceName { get; init; }
    public string? StartupTypeDesc { get; init; }
    public string? StatusDesc { get; init; }
    public int ProcessId { get; init; }
    public DateTimeOffset? LastStartupTime { get; init; }
    public required string ServiceAccount { get; init; }
    public string? IsClustered { get; init; }
    /// <summary>'Y', 'N', or null when the column does not exist on this build or is not meaningful for the row.</summary>
    public string? InstantFileInitializationEnabled { get; init; }
    public bool IsEngine { get; init; }
}
