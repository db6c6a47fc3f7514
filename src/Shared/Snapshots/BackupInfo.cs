namespace IfiDashboard.Shared.Snapshots;

/// <summary>A database's latest full backup from msdb.dbo.backupset (sizes in bytes).</summary>
public sealed record BackupInfo(string DatabaseName, DateTime FinishedAtServerTime, decimal BackupSizeBytes, decimal? CompressedSizeBytes);
