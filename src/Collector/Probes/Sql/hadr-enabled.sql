-- IfiDashboard probe: is Always On availability groups enabled on this instance? NULL before 2012 and on Azure SQL
-- Database. Only where it is 1 does the collector read the availability group views (availability-groups.sql).
SELECT CAST(SERVERPROPERTY('IsHadrEnabled') AS int) AS IsHadrEnabled;
