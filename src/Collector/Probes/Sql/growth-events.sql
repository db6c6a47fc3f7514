-- IfiDashboard probe: file growth and shrink events since the last poll.
-- @path is the default trace's folder + N'log.trc', which reads every rollover file still on disk.
-- StartTime is server local time; Duration is in microseconds; IntegerData is the growth in 8-KB pages.
-- Event classes: 92 Data File Auto Grow, 93 Log File Auto Grow, 94 Data File Auto Shrink, 95 Log File Auto Shrink.
SELECT EventClass, DatabaseID, DatabaseName, FileName, StartTime, EndTime, Duration, IntegerData
FROM sys.fn_trace_gettable(@path, DEFAULT)
WHERE EventClass IN (92, 93, 94, 95)
  AND StartTime > @since
ORDER BY StartTime;
