-- IfiDashboard probe: the IFI line SQL Server writes to the error log at start-up (2012 SP4, 2014 SP2, 2016 and
-- later). It is the second source for builds whose sys.dm_server_services has no IFI column yet (2014 SP2, 2016 RTM):
-- the privilege is read at service start, so the line is the live state until the next restart.
-- Needs VIEW SERVER STATE (up to 2019) or VIEW ANY ERROR LOG (2022 and later).
EXEC sp_readerrorlog 0, 1, N'Database Instant File Initialization';
