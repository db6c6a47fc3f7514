-- IfiDashboard probe: Transparent Data Encryption. TDE prevents instant initialization of that database's data
-- files. The DMV is the live state (sys.databases.is_encrypted can be stale).
SELECT database_id, encryption_state
FROM sys.dm_database_encryption_keys;
