-- IfiDashboard probe: the databases whose files sys.master_files should show (database snapshots have only sparse
-- files, which the files probe leaves out). sys.databases lists every database to any login (VIEW ANY DATABASE is
-- granted to public); sys.master_files hides the rows of a login without VIEW ANY DEFINITION, CREATE DATABASE or
-- ALTER ANY DATABASE, without an error: the difference is what the login cannot see.
SELECT database_id
FROM sys.databases
WHERE source_database_id IS NULL;
