-- IfiDashboard probe: the start-up IFI line through the extended procedure sp_readerrorlog calls, for logins that
-- sp_readerrorlog refuses (error 15003, securityadmin) before SQL Server 2022.
-- Needs EXECUTE on master.sys.xp_readerrorlog (GRANT EXECUTE ON sys.xp_readerrorlog TO [login] in master).
-- The search string must be nvarchar (N'...').
EXEC master.sys.xp_readerrorlog @log, 1, N'Database Instant File Initialization';
