-- IfiDashboard store, SQLite: change webhooks (docs/api.md, "Change webhooks").
--
-- An Administrator subscribes a receiver to events of the changes feed. Each subscription follows the feed with a
-- cursor of its own (the last journal and IFI-timeline ids it has been given); a dispatch pass moves the cursor and
-- writes one alert_outbox row per change in one write transaction, and the outbox's unique dedupe key
-- (change-webhook:<id>:<entry id>) makes each change one row, sent once with the alerts' retries.
-- The URL (which may hold a token) and the HMAC secret are stored only as data-protection ciphertext; url_origin
-- (scheme, host and port) is what pages and the API show. A deleted subscription keeps its row for the outbox's history.
CREATE TABLE change_webhooks (
    id                INTEGER PRIMARY KEY,
    name              TEXT    NOT NULL,
    url_origin        TEXT    NOT NULL,
    url_protected     TEXT    NOT NULL,
    secret_protected  TEXT    NOT NULL,
    -- JSON array of event names: registered, changed, retired, ifiLost, ifiGained, statusChanged.
    events            TEXT    NOT NULL,
    journal_cursor    INTEGER NOT NULL,
    timeline_cursor   INTEGER NOT NULL,
    created_at        TEXT    NOT NULL,
    created_by        TEXT    NOT NULL,
    deleted_at        TEXT    NULL,
    deleted_by        TEXT    NULL
);
CREATE UNIQUE INDEX ux_change_webhooks_active_name ON change_webhooks (name) WHERE deleted_at IS NULL;
