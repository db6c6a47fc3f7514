-- IfiDashboard store, SQLite: which collector keeps an instance, and when each collector was last heard from
-- (src/Server/Store/Inventory/StoreInstanceSource.cs, src/Server/Store/Collectors/CollectorStore.cs).
--
-- An instance stays with the collector that leased it last (instances.last_leased_by) from leased_since on; another
-- collector takes it only after that one has been silent for Ingestion:TakeoverDelay. taken_from is the collector it
-- was taken from at its last takeover. A collector's row says when it was last heard from (a lease or a delivery)
-- and since when it has been heard from without a gap, with the version and outbox depth it reported, and when its
-- last silence was mailed; collector_takeovers records each takeover for the alert.
ALTER TABLE instances ADD COLUMN leased_since TEXT NULL;
ALTER TABLE instances ADD COLUMN taken_from TEXT NULL;

CREATE TABLE collectors (
    name TEXT PRIMARY KEY,
    first_seen_at TEXT NOT NULL,
    active_since TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    last_lease_at TEXT NULL,
    last_delivery_at TEXT NULL,
    version TEXT NULL,
    outbox_depth INTEGER NULL,
    silence_alerted_at TEXT NULL
);

CREATE TABLE collector_takeovers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    taken_at TEXT NOT NULL,
    instance_id INTEGER NOT NULL REFERENCES instances (id),
    collector_name TEXT NOT NULL,
    taken_from TEXT NOT NULL
);
CREATE INDEX ix_collector_takeovers_collector ON collector_takeovers (collector_name, taken_at);
