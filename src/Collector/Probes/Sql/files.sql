-- IfiDashboard probe: every database file. size, max_size and growth are in 8-KB pages
-- (growth is a percentage when is_percent_growth = 1). Needs VIEW ANY DEFINITION to see every database.
-- Sparse files (is_sparse = 1) belong to database snapshots: never zeroed, never restored, so not read.
SELECT database_id, DB_NAME(database_id) AS database_name, file_id, name, physical_name, type, state_desc,
       size, max_size, growth, is_percent_growth
FROM sys.master_files
WHERE is_sparse = 0;
