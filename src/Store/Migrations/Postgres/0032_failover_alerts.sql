-- IfiDashboard store, PostgreSQL: how far the failover alerts have read the timeline (docs/alerts.md#failovers).
--
-- An availability-group failover or a failover cluster instance's move to another node is a row of ifi_changes
-- (fields availability_role and cluster_owner). The alert evaluation reads the rows after last_change_id, queues a
-- failover notice for each new primary in the same write transaction, and moves this mark past them, so each
-- failover is told once, also across restarts and servers sharing the store. One row; the first evaluation starts at the
-- newest change, so turning alerts on never mails old failovers.
CREATE TABLE alert_failover_cursor (
    id             INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    last_change_id BIGINT  NOT NULL
);
