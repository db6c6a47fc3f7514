-- IfiDashboard probe: recent full backups, for the size a restore would have to zero.
SELECT database_name, backup_finish_date, backup_size, compressed_backup_size
FROM msdb.dbo.backupset
WHERE type = 'D'
  AND backup_finish_date > @since
ORDER BY backup_finish_date DESC;
