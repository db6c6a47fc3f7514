-- IfiDashboard store, SQLite: what the REST API (/api/v1) needs.
-- Conventions as in 0001_initial.sql (UTC text times, enums by name, no secrets).

-- The CMDB's own key for an instance it registered. NULL for instances registered another way (demo, UI), which
-- a CMDB sync never retires. Compared exactly (case-sensitive): CMDB keys are identifiers, not names.
ALTER TABLE instances ADD COLUMN external_key TEXT NULL;
-- Bumped on every change of the row's inventory fields or retirement: the source of the API's ETags.
ALTER TABLE instances ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
-- NULL until the first change after registration (created_at stands in).
ALTER TABLE instances ADD COLUMN updated_at TEXT NULL;

-- An external key is unique among active instances; a retired one may be registered again (a new row).
CREATE UNIQUE INDEX ux_instances_active_external_key ON instances (external_key)
    WHERE retired_at IS NULL AND external_key IS NOT NULL;

-- API keys. Only a SHA-256 hash of the key is kept: the key itself is shown once, when created.
-- prefix is the key's public part (it appears in the key), for telling keys apart in lists and for revoking.
-- scopes is a JSON array of scope names (read, inventory:write, snapshot:ingest, admin).
CREATE TABLE api_keys (
    id         INTEGER PRIMARY KEY,
    prefix     TEXT    NOT NULL UNIQUE,
    key_hash   TEXT    NOT NULL UNIQUE,
    name       TEXT    NOT NULL,
    scopes     TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    revoked_at TEXT    NULL
);
