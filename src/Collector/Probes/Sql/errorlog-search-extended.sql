-- IfiDashboard probe: errorlog-search through the extended procedure, for logins that sp_readerrorlog refuses (error
-- 15003, securityadmin) before SQL Server 2022. Needs EXECUTE on master.sys.xp_readerrorlog. @search is nvarchar.
EXEC master.sys.xp_readerrorlog @log, 1, @search;
