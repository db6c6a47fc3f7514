-- IfiDashboard store, SQLite: the audit log (docs/security.md#audit-log) and the collector API's identity binding.
-- Conventions as in 0001_initial.sql (UTC text times, enums by name, no secrets).

-- Append-only: who changed what, when, from where, with the state before and after as JSON. Each row is written in
-- the transaction of the change it records. Nothing in the code updates or deletes it, and these triggers refuse it
-- to anyone else who opens the file with a SQLite client.
CREATE TABLE audit_log (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    occurred_at    TEXT    NOT NULL,
    actor          TEXT    NOT NULL,
    remote_address TEXT    NULL,
    action         TEXT    NOT NULL,
    target         TEXT    NULL,
    before_json    TEXT    NULL,
    after_json     TEXT    NULL
);
CREATE INDEX ix_audit_log_occurred_at ON audit_log (occurred_at, id);
CREATE INDEX ix_audit_log_actor ON audit_log (actor, id);

CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only');
END;

-- A collector key belongs to one named collector: stored keys record its name at issue (NULL for keys of other scopes).
ALTER TABLE api_keys ADD COLUMN collector_name TEXT NULL;

-- The collector that last leased the instance; unlike lease_owner it stays when the lease completes, because a
-- standalone collector delivers the snapshot from its outbox after it has completed the lease.
ALTER TABLE instances ADD COLUMN last_leased_by TEXT NULL;
