namespace IfiDashboard.Collector.Probes;

// Rows as the probe scripts return them; Dapper maps columns to these by name.
// Property names follow the column names of the .sql files, not C# conventions.

internal sealed class IdentityRow
{
    public string ProductVersion { get; set; } = "";
    public string? ProductLevel { get; set; }
    public string? ProductUpdateLevel { get; set; }
    public string? Edition { get; set; }
    public int? EngineEdition { get; set; }
    public string? MachineName { get; set; }
    public string? ServerName { get; set; }
    public string? InstanceName { get; set; }
    public int? IsClustered { get; set; }
    public int? ProcessId { get; set; }
}

internal sealed class HostInfoRow
{
    public string? host_platform { get; set; }
    public string? host_distribution { get; set; }
    public string? host_release { get; set; }
}

internal sealed class ServiceRow
{
    public string servicename { get; set; } = "";
    public string? startup_type_desc { get; set; }
    public string? status_desc { get; set; }
    public int process_id { get; set; }
    public DateTimeOffset? last_startup_time { get; set; }
    public string service_account { get; set; } = "";
    public string? is_clustered { get; set; }
    public string? instant_file_initialization_enabled { get; set; }
}

internal sealed class FileRow
{
    public int database_id { get; set; }
    public string? database_name { get; set; }
    public int file_id { get; set; }
    public string name { get; set; } = "";
    public string physical_name { get; set; } = "";
    public byte type { get; set; }
    public string? state_desc { get; set; }
    public int size { get; set; }
    public int max_size { get; set; }
    public int growth { get; set; }
    public bool is_percent_growth { get; set; }
}

internal sealed class VolumeRow
{
    public string? volume_mount_point { get; set; }
    public string? volume_id { get; set; }
    public string? logical_volume_name { get; set; }
    public long total_bytes { get; set; }
    public long available_bytes { get; set; }
}

internal sealed class EncryptionRow
{
    public int database_id { get; set; }
    public int encryption_state { get; set; }
}

internal sealed class TraceEventRow
{
    public int EventClass { get; set; }
    public int? DatabaseID { get; set; }
    public string? DatabaseName { get; set; }
    public string? FileName { get; set; }
    public DateTime StartTime { get; set; }
    public DateTime? EndTime { get; set; }
    public long? Duration { get; set; }
    public int? IntegerData { get; set; }
}

internal sealed class BackupRow
{
    public string database_name { get; set; } = "";
    public DateTime backup_finish_date { get; set; }
    public decimal backup_size { get; set; }
    public decimal? compressed_backup_size { get; set; }
}

internal sealed class TraceStatusRow
{
    public int TraceFlag { get; set; }
    public int Status { get; set; }
    public int Global { get; set; }
}

internal sealed class ErrorLogRow
{
    public DateTime LogDate { get; set; }
    public string? ProcessInfo { get; set; }
    public string? Text { get; set; }
}
