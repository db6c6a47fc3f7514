-- IfiDashboard store, SQLite, initial schema.
--
-- Conventions:
--   * Times are ISO-8601 UTC text of fixed width, 'yyyy-MM-ddTHH:mm:ss.fffffffZ' (e.g. 2026-05-03T07:15:00.0000000Z),
--     so comparing the text orders the instants. Columns holding a time end in _at or _time.
--   * Enums (OutcomeClass, IfiState, EncryptMode) are stored as their text names.
--   * Booleans are INTEGER 0/1; tags are a JSON array of strings.
--   * No secret is ever stored: an instance names its credential (credential_name); the collector resolves it.

-- Inventory: what to poll and how to reach it. Retiring keeps the row (and its history).
CREATE TABLE instances (
    id                       INTEGER PRIMARY KEY,
    name                     TEXT    NOT NULL COLLATE NOCASE,
    host                     TEXT    NOT NULL,
    port                     INTEGER NULL,
    instance_name            TEXT    NULL,
    environment              TEXT    NOT NULL,
    owner                    TEXT    NULL,
    tags                     TEXT    NOT NULL DEFAULT '[]',
    encrypt                  TEXT    NOT NULL,
    trust_server_certificate INTEGER NOT NULL DEFAULT 0,
    host_name_in_certificate TEXT    NULL,
    credential_name          TEXT    NULL,
    poll_interval_seconds    INTEGER NOT NULL,
    created_at               TEXT    NOT NULL,
    retired_at               TEXT    NULL,
    -- Scheduling and leases: NULL next_poll_at means due now; a lease is free when lease_owner is NULL or expired.
    next_poll_at             TEXT    NULL,
    lease_owner              TEXT    NULL,
    lease_expires_at         TEXT    NULL
);

-- A name is unique among active instances, ignoring case; a retired name may be registered again.
CREATE UNIQUE INDEX ux_instances_active_name ON instances (name) WHERE retired_at IS NULL;
CREATE INDEX ix_instances_due ON instances (next_poll_at) WHERE retired_at IS NULL;

-- One row per snapshot received. snapshot_id (chosen by the collector) makes ingestion idempotent.
CREATE TABLE polls (
    id                 INTEGER PRIMARY KEY,
    snapshot_id        TEXT    NOT NULL UNIQUE,
    instance_id        INTEGER NOT NULL REFERENCES instances (id),
    collector_name     TEXT    NOT NULL,
    started_at         TEXT    NOT NULL,
    finished_at        TEXT    NOT NULL,
    outcome            TEXT    NOT NULL,
    message            TEXT    NULL,
    ifi_state          TEXT    NOT NULL,
    ifi_unknown_reason TEXT    NULL,
    -- 1 when the services probe was Ok: only such polls tell us the current IFI flag and service account.
    is_good            INTEGER NOT NULL
);

CREATE INDEX ix_polls_instance_started ON polls (instance_id, started_at);

CREATE TABLE probe_outcomes (
    id               INTEGER PRIMARY KEY,
    poll_id          INTEGER NOT NULL REFERENCES polls (id) ON DELETE CASCADE,
    probe            TEXT    NOT NULL,
    outcome          TEXT    NOT NULL,
    message          TEXT    NULL,
    sql_error_number INTEGER NULL
);

CREATE INDEX ix_probe_outcomes_poll ON probe_outcomes (poll_id);

-- Every row of sys.dm_server_services seen by a poll.
CREATE TABLE service_snapshots (
    id                 INTEGER PRIMARY KEY,
    poll_id            INTEGER NOT NULL REFERENCES polls (id) ON DELETE CASCADE,
    service_name       TEXT    NOT NULL,
    service_account    TEXT    NOT NULL,
    status_desc        TEXT    NULL,
    startup_type_desc  TEXT    NULL,
    process_id         INTEGER NOT NULL,
    last_startup_time  TEXT    NULL,
    is_clustered       TEXT    NULL,
    ifi_enabled        TEXT    NULL,
    is_engine          INTEGER NOT NULL
);

CREATE INDEX ix_service_snapshots_poll ON service_snapshots (poll_id);

-- The latest known state per instance, kept current by ingestion so the dashboard reads one row per instance.
-- Identity and engine-service columns hold what the last poll able to see them learned: a failed poll leaves them.
CREATE TABLE instance_state (
    instance_id              INTEGER PRIMARY KEY REFERENCES instances (id),
    last_poll_id             INTEGER NOT NULL REFERENCES polls (id),
    last_poll_at             TEXT    NOT NULL,
    last_good_poll_id        INTEGER NULL REFERENCES polls (id),
    last_good_poll_at        TEXT    NULL,
    product_version          TEXT    NULL,
    product_level            TEXT    NULL,
    product_update_level     TEXT    NULL,
    edition                  TEXT    NULL,
    engine_edition           INTEGER NULL,
    host_platform            TEXT    NULL,
    server_name              TEXT    NULL,
    engine_service_account   TEXT    NULL,
    engine_ifi_enabled       TEXT    NULL,
    engine_last_startup_time TEXT    NULL,
    ifi_state                TEXT    NOT NULL,
    ifi_unknown_reason       TEXT    NULL,
    last_outcome             TEXT    NOT NULL,
    last_message             TEXT    NULL
);

-- Timeline: a change of the engine's IFI flag, service account or start time between two good polls.
CREATE TABLE ifi_changes (
    id          INTEGER PRIMARY KEY,
    instance_id INTEGER NOT NULL REFERENCES instances (id),
    poll_id     INTEGER NOT NULL REFERENCES polls (id),
    changed_at  TEXT    NOT NULL,
    field       TEXT    NOT NULL,
    old_value   TEXT    NULL,
    new_value   TEXT    NULL
);

CREATE INDEX ix_ifi_changes_instance ON ifi_changes (instance_id, changed_at);
