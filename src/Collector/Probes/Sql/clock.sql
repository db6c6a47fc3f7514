-- IfiDashboard probe: the server's clock. The default trace and msdb record server local time; the offset turns
-- them into UTC.
SELECT SYSDATETIMEOFFSET() AS ServerTime;
