-- IfiDashboard probe: the availability groups this instance hosts a replica of, its role in each, and the other
-- replicas, as Microsoft documents the views (and dbatools' Get-DbaAvailabilityGroup and DBA Dash read them). Every
-- replica that may become primary zero-fills data-file growth and restores without IFI, and a secondary redoes the
-- primary's growths and receives automatic seeding, so a replica without IFI is a risk for the whole group.
-- One view per statement, joined by the collector on group_id; every column exists from 2012.
-- The catalog views (sys.availability_*) show no rows without VIEW ANY DEFINITION; the DMVs (sys.dm_hadr_*) need
-- VIEW SERVER STATE (VIEW SERVER PERFORMANCE STATE from SQL Server 2022). On a secondary,
-- sys.dm_hadr_availability_replica_states has only the local replica's row: the primary's name comes from
-- sys.dm_hadr_availability_group_states.
SELECT group_id, name
FROM sys.availability_groups;

SELECT group_id, replica_server_name
FROM sys.availability_replicas;

SELECT group_id, dns_name
FROM sys.availability_group_listeners;

SELECT group_id, primary_replica
FROM sys.dm_hadr_availability_group_states;

SELECT group_id, is_local, role_desc
FROM sys.dm_hadr_availability_replica_states;
