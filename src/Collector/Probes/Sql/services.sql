-- IfiDashboard probe: services, with the live IFI state of the Database Engine.
-- Needs VIEW SERVER STATE (up to 2019) or VIEW SERVER SECURITY STATE (2022 and later).
-- The engine row is the one whose process_id equals SERVERPROPERTY('ProcessID'): a LIKE 'SQL Server%' filter
-- would also match the Agent.
SELECT servicename, startup_type_desc, status_desc, process_id, last_startup_time, service_account, is_clustered,
       instant_file_initialization_enabled
FROM sys.dm_server_services;
