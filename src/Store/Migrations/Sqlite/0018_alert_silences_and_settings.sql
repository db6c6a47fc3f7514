-- IfiDashboard store, SQLite: acknowledgements, snoozes and silences of alerts (docs/alerts.md#silences), and the
-- alert settings changed in the dashboard.
--
-- A silence covers exactly one scope (an instance, an environment or a tag) until expires_at, or until someone ends
-- it (ended_at, ended_by); an acknowledgement also ends when its instance's alert resolves (ended_by 'resolved').
-- Rows are never deleted: who silenced what, why and until when stays readable beside the audit log.
CREATE TABLE alert_silences (
    id          INTEGER PRIMARY KEY,
    kind        TEXT    NOT NULL,
    instance_id INTEGER NULL REFERENCES instances (id),
    environment TEXT    NULL,
    tag         TEXT    NULL,
    reason      TEXT    NOT NULL,
    created_by  TEXT    NOT NULL,
    created_at  TEXT    NOT NULL,
    expires_at  TEXT    NOT NULL,
    ended_at    TEXT    NULL,
    ended_by    TEXT    NULL
);

CREATE INDEX ix_alert_silences_active ON alert_silences (ended_at, expires_at);

-- An alert a silence covered is still recorded, status 'Silenced', with the silence that held it back.
ALTER TABLE alert_outbox ADD COLUMN silence_id INTEGER NULL REFERENCES alert_silences (id);

-- Alert settings an Administrator changed on /alerts/settings, by their configuration key ('Rules:NonCompliant',
-- 'RenotifyInterval'): a stored value overrides the configuration's from the next alert evaluation, no restart.
CREATE TABLE alert_settings (
    name       TEXT NOT NULL PRIMARY KEY,
    value      TEXT NOT NULL,
    changed_by TEXT NOT NULL,
    changed_at TEXT NOT NULL
);
