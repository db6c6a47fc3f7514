-- IfiDashboard store, SQLite: the IFI policy and its waivers, and the daily compliance series.

-- Every saved policy is a new version; the highest version is in force. rules is a JSON array of
-- {name, desired, environment, tags, owner} in evaluation order (the first match decides).
CREATE TABLE policy_versions (
    version    INTEGER PRIMARY KEY,
    rules      TEXT    NOT NULL,
    author     TEXT    NOT NULL,
    created_at TEXT    NOT NULL
);

-- A time-boxed exception for one instance. Revoking keeps the row (who granted what, and when it ended).
CREATE TABLE waivers (
    id          INTEGER PRIMARY KEY,
    instance_id INTEGER NOT NULL REFERENCES instances (id),
    reason      TEXT    NOT NULL,
    author      TEXT    NOT NULL,
    granted_at  TEXT    NOT NULL,
    expires_at  TEXT    NOT NULL,
    revoked_at  TEXT    NULL,
    revoked_by  TEXT    NULL
);

CREATE INDEX ix_waivers_instance ON waivers (instance_id);

-- One status per instance per UTC day (the worst seen that day), for the compliance trend.
CREATE TABLE daily_compliance (
    day         TEXT    NOT NULL,
    instance_id INTEGER NOT NULL REFERENCES instances (id),
    status      TEXT    NOT NULL,
    PRIMARY KEY (day, instance_id)
);
