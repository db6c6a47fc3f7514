namespace IfiDashboard.Simulator.Scenarios;

/// <summary>A row of msdb.dbo.backupset. Times are UTC here; msdb stores server local time.</summary>
public sealed class ScenarioBackup
{
    public required string Database { get; set; }

    /// <summary>D full, I differential, L log (also F file, G differential file, P partial, Q differential partial).</summary>
    public string Type { get; set; } = "D";

    public DateTimeOffset Start { get; set; }

    public DateTimeOffset Finish { get; set; }

    /// <summary>Bytes.</summary>
    public decimal BackupSize { get; set; }

    /// <summary>Bytes; null as on builds or rows that have none.</summary>
    public decimal? CompressedBackupSize { get; set; }
}

/// <summary>A row of msdb.dbo.restorehistory. restore_date is the completion time; there is no start time.</summary>
public sealed class ScenarioRestore
{
    public DateTimeOffset RestoreDate { get; set; }

    public required string DestinationDatabase { get; set; }

    /// <summary>The backup_set_id restored: the 1-based position in the instance's backups.</summary>
    public int BackupSetId { get; set; }

    /// <summary>D database, F file, G filegroup, I differential, L log, V verifyonly.</summary>
    public string RestoreType { get; set; } = "D";

    public bool Replace { get; set; }
}
