-- IfiDashboard probe: host platform (sys.dm_os_host_info exists from SQL Server 2017, major version 14).
SELECT host_platform, host_distribution, host_release
FROM sys.dm_os_host_info;
