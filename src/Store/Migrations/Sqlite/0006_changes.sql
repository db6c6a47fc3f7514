-- IfiDashboard store, SQLite: the journal behind GET /api/v1/changes.
-- Conventions as in 0001_initial.sql (UTC text times, enums by name, no secrets).

-- Append-only: rows are never updated or deleted, so a client's cursor (the highest id it has seen) stays valid for
-- ever. AUTOINCREMENT keeps ids from ever being reused; SQLite's single writer commits them in increasing order, so
-- a reader never sees a higher id before a lower one.
--   kind 'status':    a compliance status transition (change = the new status; old_value NULL on first sight).
--   kind 'inventory': an instance created, updated or retired (change), at inventory version `version`.
-- IFI timeline changes are not copied here: the feed reads ifi_changes itself, with its own id in the cursor.
CREATE TABLE change_journal (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    kind        TEXT    NOT NULL,
    instance_id INTEGER NOT NULL REFERENCES instances (id),
    change      TEXT    NOT NULL,
    occurred_at TEXT    NOT NULL,
    recorded_at TEXT    NOT NULL,
    old_value   TEXT    NULL,
    new_value   TEXT    NULL,
    version     INTEGER NULL,
    detail      TEXT    NULL
);

-- The last status and the last inventory version recorded per instance are what new observations are compared with.
CREATE INDEX ix_change_journal_instance ON change_journal (kind, instance_id, id);
-- An inventory change is recorded once however many recorders race to it.
CREATE UNIQUE INDEX ux_change_journal_inventory ON change_journal (instance_id, version, change) WHERE kind = 'inventory';
