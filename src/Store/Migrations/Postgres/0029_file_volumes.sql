-- IfiDashboard store: the volume each database file lives on, as sys.dm_os_volume_stats reports it.
--
-- A volume mounted in a folder (an NTFS mount point such as D:\Data\Sales\, a Linux mount) is a volume of its own,
-- which the file's path alone does not tell: restore risk and zeroing rates group files by these mount points when
-- they were read, and by the path's drive, share or first folder otherwise. NULL when the volumes probe did not read
-- them (refused, not collected yet); the sizes are bytes, as the function reports them when polled.
ALTER TABLE database_files ADD COLUMN volume_mount_point TEXT NULL;
ALTER TABLE database_files ADD COLUMN volume_id TEXT NULL;
ALTER TABLE database_files ADD COLUMN volume_name TEXT NULL;
ALTER TABLE database_files ADD COLUMN volume_total_bytes BIGINT NULL;
ALTER TABLE database_files ADD COLUMN volume_available_bytes BIGINT NULL;
