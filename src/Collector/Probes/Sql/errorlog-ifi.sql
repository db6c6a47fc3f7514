-- IfiDashboard probe: the IFI line SQL Server writes to the error log at start-up (2012 SP4, 2014 SP2, 2016 and
-- later). It is the second source for builds whose sys.dm_server_services has no IFI column yet (2014 SP2, 2016 RTM):
-- the privilege is read at service start, so the line is the live state until the next restart.
-- @log is the log number: 0 is the current log; after sp_cycle_errorlog the start-up line is in an archive (1, 2, ...).
-- Needs VIEW ANY ERROR LOG (2022 and later). Before 2022 Microsoft's page says VIEW SERVER STATE, but published
-- copies of the procedure check securityadmin membership (error 15003); the collector then runs errorlog-ifi-extended.
EXEC sp_readerrorlog @log, 1, N'Database Instant File Initialization';
