-- IfiDashboard store: a growth event's identity is its start time as the server's trace holds it (local time).
--
-- The collector converts StartTime to UTC with the server's offset when polled; after a daylight-saving change the
-- same event converts an hour apart, and a collector that re-reads the trace (after a restart) stored it twice under
-- the UTC key. Rows from collectors that do not send the local time keep NULL and the UTC key alone.
ALTER TABLE growth_events ADD COLUMN start_time_local TEXT NULL;
CREATE UNIQUE INDEX ux_growth_events_local_key ON growth_events (instance_id, database_name, file_name, event_class, start_time_local);
