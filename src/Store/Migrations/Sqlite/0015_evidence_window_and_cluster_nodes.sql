-- IfiDashboard store: how far back an instance's growth evidence reaches, and a failover cluster instance's nodes.
--
-- The default trace keeps five rollover files; on an instance first polled today, time lost and zeroing rates rest
-- on the oldest event those files still held, not on 90 days. evidence_since is the earliest such oldest event any
-- poll saw (ISO-8601 UTC text, like every stored time): the store keeps the events read since, so it only moves back.
ALTER TABLE instance_state ADD COLUMN evidence_since TEXT NULL;

-- SERVERPROPERTY('IsClustered') (1/0) and sys.dm_os_cluster_nodes (node names, current owner first, comma-separated;
-- NULL when not read): "Perform volume maintenance tasks" is local to each node, so advice names them all.
ALTER TABLE instance_state ADD COLUMN is_clustered INTEGER NULL;
ALTER TABLE instance_state ADD COLUMN cluster_nodes TEXT NULL;
