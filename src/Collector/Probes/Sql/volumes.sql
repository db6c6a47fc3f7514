-- IfiDashboard probe: the volume one database file lives on. A volume mounted in a folder (an NTFS mount point such
-- as D:\Data\Sales\, a Linux mount) is a volume of its own, which the file's path alone does not tell. Run once per
-- folder that holds database files (files of one folder share its volume), for one file of it.
-- Needs VIEW SERVER STATE (VIEW SERVER PERFORMANCE STATE from SQL Server 2022). Not on Azure SQL Database.
SELECT volume_mount_point, volume_id, logical_volume_name, total_bytes, available_bytes
FROM sys.dm_os_volume_stats(@database_id, @file_id);
