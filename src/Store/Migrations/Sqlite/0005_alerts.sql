-- IfiDashboard store, SQLite: e-mail alerts. Per-instance alert state (so an alert fires on entering a problem,
-- not on every assessment) and the outbox the delivery loop sends from.

-- One open episode per instance and rule. The row exists while the condition holds (or cannot be seen); it is
-- deleted when the episode ends. subject tells two episodes of one rule apart (the waiver's expiry for
-- WaiverExpiring), so a renewed waiver warns again.
CREATE TABLE alert_states (
    instance_id  INTEGER NOT NULL REFERENCES instances (id),
    rule         TEXT    NOT NULL,
    subject      TEXT    NOT NULL,
    opened_at    TEXT    NOT NULL,
    notified_at  TEXT    NULL,
    notify_count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (instance_id, rule)
);

-- Every message, written in the same transaction as the alert-state change that caused it. The row is the unit of
-- delivery: status Pending until the relay accepts it (Sent) or the attempts run out (Failed). dedupe_key makes a
-- repeated decision insert nothing. No credential is ever stored here.
CREATE TABLE alert_outbox (
    id              INTEGER PRIMARY KEY,
    dedupe_key      TEXT    NOT NULL UNIQUE,
    kind            TEXT    NOT NULL,
    instance_id     INTEGER NULL,
    instance_name   TEXT    NULL,
    rule            TEXT    NULL,
    recipients      TEXT    NOT NULL,
    subject         TEXT    NOT NULL,
    text_body       TEXT    NOT NULL,
    html_body       TEXT    NOT NULL,
    message_id      TEXT    NOT NULL,
    created_at      TEXT    NOT NULL,
    status          TEXT    NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT    NULL,
    last_attempt_at TEXT    NULL,
    last_error      TEXT    NULL,
    sent_at         TEXT    NULL
);

CREATE INDEX ix_alert_outbox_due ON alert_outbox (status, next_attempt_at);
CREATE INDEX ix_alert_outbox_created ON alert_outbox (created_at);
