-- IfiDashboard probe: trace flags on globally. Trace flags 1805 and 1806 disable instant file initialization for data files
-- whatever the service account holds (Microsoft's trace flag list; sp_Blitz check 74). DBCC TRACESTATUS needs only
-- membership in public. [U] whether sys.dm_server_services.instant_file_initialization_enabled reflects 1805/1806.
DBCC TRACESTATUS(-1) WITH NO_INFOMSGS;
