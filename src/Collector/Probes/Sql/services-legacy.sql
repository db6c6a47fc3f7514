-- IfiDashboard probe: services on a build without the IFI column (before 2012 SP4, 2014 SP3, 2016 SP1).
-- The IFI state of such an instance is unknown (build too old), never "disabled".
SELECT servicename, startup_type_desc, status_desc, process_id, last_startup_time, service_account, is_clustered
FROM sys.dm_server_services;
