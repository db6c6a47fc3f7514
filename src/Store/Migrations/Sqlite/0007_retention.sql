-- IfiDashboard store, SQLite: indexes retention needs (src/Server/Store/Retention).
--
-- Deleting a poll makes the store check every table that references polls (foreign keys are on); without an index on
-- the referencing column each check scans the whole table, once per deleted poll (a million growth events, 500
-- times a batch). The same columns are what the pruner asks "is this poll still referenced?" with.
CREATE INDEX ix_growth_events_first_poll ON growth_events (first_poll_id);
CREATE INDEX ix_ifi_changes_poll ON ifi_changes (poll_id);
CREATE INDEX ix_instance_state_last_poll ON instance_state (last_poll_id);
CREATE INDEX ix_instance_state_last_good_poll ON instance_state (last_good_poll_id);
CREATE INDEX ix_database_files_seen_poll ON database_files (seen_poll_id);
CREATE INDEX ix_database_encryption_seen_poll ON database_encryption (seen_poll_id);
CREATE INDEX ix_database_backups_seen_poll ON database_backups (seen_poll_id);

-- Old polls oldest first across the fleet; ix_polls_instance_started serves one instance only.
CREATE INDEX ix_polls_started ON polls (started_at);
