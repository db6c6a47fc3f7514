-- IfiDashboard store, SQLite: instances whose first assessment the alert rules have seen.
--
-- The problems found by an instance's first assessment after registration are its baseline, not news: they go out as
-- one baseline mail per recipient list instead of a mail per instance (a CMDB sync of 1,500 instances would otherwise
-- send hundreds on day one). A row here means the baseline was taken; later problems are alerted one by one.
CREATE TABLE alert_baselines (
    instance_id INTEGER PRIMARY KEY REFERENCES instances (id),
    taken_at    TEXT NOT NULL
);
