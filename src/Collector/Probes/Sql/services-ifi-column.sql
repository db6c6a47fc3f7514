-- IfiDashboard probe: does this build's sys.dm_server_services have the IFI column?
-- It arrived in SQL Server 2012 SP4, 2014 SP3 and 2016 SP1; older builds answer its select with error 207.
SELECT COUNT(*) AS HasIfiColumn
FROM sys.all_columns
WHERE object_id = OBJECT_ID(N'sys.dm_server_services')
  AND name = N'instant_file_initialization_enabled';
