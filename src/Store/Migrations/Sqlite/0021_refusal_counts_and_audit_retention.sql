-- IfiDashboard store, SQLite: refusals are counted, not written one by one, and the audit log has a retention
-- (docs/security.md#audit-log).
--
-- One row per hour (window_start), kind of refusal (action), source (actor and remote address, '' for none) and
-- reason, with how many there were. AuditLog.CountRefusalAsync writes at most 100 rows per window; past that, each
-- kind of refusal counts into one row of its own ('(other sources)'), so a flood from any number of addresses adds at
-- most 100 + one per kind rows an hour. Until this migration each refusal was an audit_log row (500 forged sign-ins
-- were 500 rows); those rows stay as they are.
CREATE TABLE refusal_counts (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    window_start   TEXT    NOT NULL,
    action         TEXT    NOT NULL,
    actor          TEXT    NOT NULL,
    remote_address TEXT    NOT NULL,
    reason         TEXT    NOT NULL,
    refusals       INTEGER NOT NULL,
    first_at       TEXT    NOT NULL,
    last_at        TEXT    NOT NULL
);
CREATE UNIQUE INDEX ux_refusal_counts ON refusal_counts (window_start, action, actor, remote_address, reason);

-- The audit log stays append-only, except that the retention pass may delete entries older than the cut-off it
-- writes here inside its own transaction (and removes before it commits, with an audit.pruned entry saying what went).
-- Any other DELETE is still refused.
CREATE TABLE audit_log_pruning (
    cutoff TEXT NOT NULL
);
DROP TRIGGER audit_log_no_delete;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
WHEN NOT EXISTS (SELECT 1 FROM audit_log_pruning WHERE OLD.occurred_at < audit_log_pruning.cutoff)
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only');
END;
