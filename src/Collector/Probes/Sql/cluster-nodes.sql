-- IfiDashboard probe: a failover cluster instance's possible owner nodes, the current owner first. Read only when
-- SERVERPROPERTY('IsClustered') = 1. "Perform volume maintenance tasks" is local to each node, so the grant must be
-- made on all of them. Needs VIEW SERVER STATE (VIEW SERVER PERFORMANCE STATE from SQL Server 2022).
SELECT NodeName, is_current_owner
FROM sys.dm_os_cluster_nodes
ORDER BY is_current_owner DESC, NodeName;
