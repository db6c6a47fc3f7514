-- IfiDashboard probe: the default trace, which records every file autogrowth with its duration.
-- No row: 'default trace enabled' is off. Needs ALTER TRACE.
SELECT path
FROM sys.traces
WHERE is_default = 1;
