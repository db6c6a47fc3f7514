-- IfiDashboard probe: file growth and shrink events that ended since the last poll (less an overlap).
-- @path is the trace file that was current at the last poll (…\log_N.trc: fn_trace_gettable reads it and every later
-- rollover file), or on the first poll the default trace's folder + N'log.trc', which reads every rollover file still
-- on disk.
-- The trace writes a growth's row when the growth ends, so a long growth started before a shorter, later one can
-- appear after it: the watermark is on EndTime, not StartTime.
-- StartTime and EndTime are server local time; Duration is in microseconds; IntegerData is the growth in 8-KB pages.
-- Event classes: 92 Data File Auto Grow, 93 Log File Auto Grow, 94 Data File Auto Shrink, 95 Log File Auto Shrink.
SELECT EventClass, DatabaseID, DatabaseName, FileName, StartTime, EndTime, Duration, IntegerData
FROM sys.fn_trace_gettable(@path, DEFAULT)
WHERE EventClass IN (92, 93, 94, 95)
  AND EndTime >= @since
ORDER BY StartTime;
