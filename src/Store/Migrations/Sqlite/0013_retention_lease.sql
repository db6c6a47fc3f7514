-- IfiDashboard store, SQLite: who is running the retention pass (src/Server/Store/Retention/RetentionLease.cs).
--
-- One row. Servers sharing a store take it before a pass and let it go after, so a pass runs on one server at a time;
-- a server that dies holding it frees it when expires_at passes. SQLite has one server, which always gets it.
CREATE TABLE retention_lease (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    holder TEXT NULL,
    expires_at TEXT NULL
);
INSERT INTO retention_lease (id, holder, expires_at) VALUES (1, NULL, NULL);
