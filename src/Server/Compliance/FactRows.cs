namespace IfiDashboard.Server.Compliance;

// Rows as SQLite returns them for the compliance facts (times as ISO text, enums as names).

internal sealed class InstanceFactRow
{
    public long Id { get; init; }
    public string Tags { get; init; } = "[]";
    public string? ProductVersion { get; init; }
    public long? EngineEdition { get; init; }
    public string? HostPlatform { get; init; }
    public string? ServerName { get; init; }
    public string? EngineLastStartupTime { get; init; }
}

internal sealed class FileFactRow
{
    public long InstanceId { get; init; }
    public long DatabaseId { get; init; }
    public string DatabaseName { get; init; } = "";
    public string LogicalName { get; init; } = "";
    public string PhysicalName { get; init; } = "";
    public long Type { get; init; }
    public long SizePages { get; init; }
    public long Growth { get; init; }
    public long IsPercentGrowth { get; init; }
}

internal sealed class EncryptionFactRow
{
    public long InstanceId { get; init; }
    public long DatabaseId { get; init; }
    public long EncryptionState { get; init; }
}

internal sealed class GrowthFactRow
{
    public long InstanceId { get; init; }
    public long EventClass { get; init; }
    public long DatabaseId { get; init; }
    public string DatabaseName { get; init; } = "";
    public string FileName { get; init; } = "";
    public string StartTime { get; init; } = "";
    public long DurationUs { get; init; }
    public long GrowthPages { get; init; }
}

internal sealed class ObservationRow
{
    public long InstanceId { get; init; }
    public string SnapshotId { get; init; } = "";
    public string PolledAt { get; init; } = "";
    public string IfiState { get; init; } = "";
    public string? Account { get; init; }
    public string? Started { get; init; }
}
