using System.Text.Json.Serialization;

namespace IfiDashboard.Simulator.Scenarios;

/// <summary>
/// A database of an instance. The four system databases are always present; listing one here (by name) replaces
/// its defaults. See docs/simulator.md.
/// </summary>
public sealed class ScenarioDatabase
{
    public required string Name { get; set; }

    /// <summary>database_id; 0 picks the next free id from 5 (system databases keep 1 to 4).</summary>
    public int Id { get; set; }

    /// <summary>
    /// sys.dm_database_encryption_keys.encryption_state: 0 no database encryption key (no row), 1 unencrypted,
    /// 2 encryption in progress, 3 encrypted, 4 key change, 5 decryption in progress, 6 protection change.
    /// </summary>
    public int EncryptionState { get; set; }

    /// <summary>FULL, BULK_LOGGED or SIMPLE; null takes SIMPLE for master, tempdb and msdb and FULL otherwise.</summary>
    public string? RecoveryModel { get; set; }

    /// <summary>
    /// The database this one is a snapshot of (CREATE DATABASE ... AS SNAPSHOT OF): its files are sparse
    /// (sys.master_files.is_sparse = 1), never zeroed and never restored.
    /// </summary>
    public string? SnapshotOf { get; set; }

    /// <summary>Empty gives one 8 MB data file and one 8 MB log file in the default data directory.</summary>
    public List<ScenarioDatabaseFile> Files { get; set; } = [];

    /// <summary>TDE keeps data-file growth from using IFI (reference section 2).</summary>
    [JsonIgnore]
    public bool IsEncrypted => EncryptionState is 2 or 3 or 4 or 6;
}

/// <summary>One file of a database, as sys.master_files reports it; sizes are in 8-KB pages.</summary>
public sealed class ScenarioDatabaseFile
{
    /// <summary>file_id; 0 numbers files in order (the first data file 1, the first log file 2, then 3, 4, ...).</summary>
    public int FileId { get; set; }

    /// <summary>The logical name, as the default trace's FileName column shows it.</summary>
    public required string Name { get; set; }

    /// <summary>Full path in the platform's style: D:\Data\x.mdf or /var/opt/mssql/data/x.mdf.</summary>
    public required string PhysicalName { get; set; }

    public DatabaseFileType Type { get; set; } = DatabaseFileType.Rows;

    public int SizePages { get; set; } = 1024;

    /// <summary>Pages; -1 unlimited, 0 no growth, 268435456 for a log capped at 2 TB.</summary>
    public int MaxSizePages { get; set; } = -1;

    /// <summary>Pages, or a percentage when <see cref="IsPercentGrowth"/>; 0 for a fixed-size file.</summary>
    public int Growth { get; set; } = 8192;

    public bool IsPercentGrowth { get; set; }
}

/// <summary>sys.master_files.type: ROWS is 0, LOG is 1.</summary>
public enum DatabaseFileType
{
    Rows = 0,
    Log = 1,
}
