-- IfiDashboard probe: which availability groups are contained (SQL Server 2022 and later; the column does not exist
-- before). A contained group has its own master and msdb: the collector's login and grants must exist there too.
-- Needs VIEW ANY DEFINITION to see the groups.
SELECT group_id, is_contained
FROM sys.availability_groups;
