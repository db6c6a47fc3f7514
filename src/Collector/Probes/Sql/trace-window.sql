-- IfiDashboard probe: how far back the default trace reaches, i.e. the oldest event its surviving rollover files hold.
-- Growth events older than this have been rolled over (five files of 20 MB by default), so time lost and zeroing
-- rates on an instance first polled now rest on this much history only. StartTime is server local time.
-- @path is the folder + N'log.trc' and number_files 1: only the oldest surviving rollover file is read, which holds the
-- oldest event ([U] the base name then stands for the first file of the rollover sequence).
-- Needs ALTER TRACE, like the growth events.
SELECT MIN(StartTime) AS OldestEventTime
FROM sys.fn_trace_gettable(@path, 1);
