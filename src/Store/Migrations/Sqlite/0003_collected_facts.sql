-- IfiDashboard store, SQLite: what the collector reads beyond identity and services.
-- Conventions as in 0001_initial.sql (UTC text times, enums by name, no secrets).

-- Database files as the latest poll able to read sys.master_files saw them (replaced whole per instance).
-- Sizes and growth in 8-KB pages; growth is a percentage when is_percent_growth = 1.
CREATE TABLE database_files (
    instance_id       INTEGER NOT NULL REFERENCES instances (id),
    database_id       INTEGER NOT NULL,
    database_name     TEXT    NOT NULL,
    file_id           INTEGER NOT NULL,
    logical_name      TEXT    NOT NULL,
    physical_name     TEXT    NOT NULL,
    type              INTEGER NOT NULL,
    state_desc        TEXT    NULL,
    size_pages        INTEGER NOT NULL,
    max_size_pages    INTEGER NOT NULL,
    growth            INTEGER NOT NULL,
    is_percent_growth INTEGER NOT NULL,
    seen_poll_id      INTEGER NOT NULL REFERENCES polls (id),
    PRIMARY KEY (instance_id, database_id, file_id)
);

-- TDE state per database (sys.dm_database_encryption_keys), replaced whole per instance like the files.
CREATE TABLE database_encryption (
    instance_id      INTEGER NOT NULL REFERENCES instances (id),
    database_id      INTEGER NOT NULL,
    encryption_state INTEGER NOT NULL,
    seen_poll_id     INTEGER NOT NULL REFERENCES polls (id),
    PRIMARY KEY (instance_id, database_id)
);

-- Growth and shrink events of the default trace, in UTC. The trace rolls over and is re-read: the unique key
-- (instance, database, file, event class, start time) stores each event once however often it is read.
CREATE TABLE growth_events (
    id            INTEGER PRIMARY KEY,
    instance_id   INTEGER NOT NULL REFERENCES instances (id),
    database_id   INTEGER NOT NULL,
    database_name TEXT    NOT NULL,
    file_name     TEXT    NOT NULL,
    event_class   INTEGER NOT NULL,
    start_time    TEXT    NOT NULL,
    end_time      TEXT    NULL,
    duration_us   INTEGER NOT NULL,
    growth_pages  INTEGER NOT NULL,
    first_poll_id INTEGER NOT NULL REFERENCES polls (id)
);

CREATE UNIQUE INDEX ux_growth_events_key ON growth_events (instance_id, database_name, file_name, event_class, start_time);
CREATE INDEX ix_growth_events_start ON growth_events (start_time);

-- Latest full backup per database (msdb.dbo.backupset), in bytes; finish time as the server recorded it.
CREATE TABLE database_backups (
    instance_id            INTEGER NOT NULL REFERENCES instances (id),
    database_name          TEXT    NOT NULL,
    finished_at_local      TEXT    NOT NULL,
    backup_size_bytes      INTEGER NOT NULL,
    compressed_size_bytes  INTEGER NULL,
    seen_poll_id           INTEGER NOT NULL REFERENCES polls (id),
    PRIMARY KEY (instance_id, database_name)
);

-- 'Enabled' or 'Disabled' once the default trace probe could tell; NULL while unknown.
ALTER TABLE instance_state ADD COLUMN default_trace TEXT NULL;
ALTER TABLE instance_state ADD COLUMN server_utc_offset_minutes INTEGER NULL;
