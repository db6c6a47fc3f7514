-- IfiDashboard store: each API key's requests in its current window (Api:RateLimit), counted in the store so that
-- every server on it shares the key's limit instead of allowing it once per server (docs/api.md, "Rate limits"). A
-- partition is a key's id (or a signed-in person's, or an address); a window opens with its first request. (SQLite
-- has one server per store, which counts in its own memory.)
CREATE TABLE api_rate_windows (
    partition_key TEXT    NOT NULL PRIMARY KEY,
    window_start  TEXT    NOT NULL,
    requests      BIGINT  NOT NULL
);
