-- IfiDashboard store, Sqlite: availability groups and failover cluster owners (docs/compliance.md#availability-groups).
--
-- An instance's availability groups as its latest good read of the HADR views showed them, one row per group:
-- group_id (sys.availability_groups.group_id, the same on every replica) groups the fleet's replicas; replicas and
-- listeners are comma-separated (server and DNS names hold no comma). Replaced by each poll whose probe succeeded.
CREATE TABLE availability_group_replicas (
    instance_id     INTEGER NOT NULL REFERENCES instances (id),
    group_id        TEXT    NOT NULL,
    group_name      TEXT    NOT NULL,
    -- PRIMARY, SECONDARY or RESOLVING: this instance's role.
    local_role      TEXT    NOT NULL,
    primary_replica TEXT    NULL,
    is_contained    INTEGER NOT NULL,
    replicas        TEXT    NOT NULL,
    listeners       TEXT    NOT NULL,
    PRIMARY KEY (instance_id, group_id)
);
CREATE INDEX ix_availability_group_replicas_group ON availability_group_replicas (group_id);

-- What each poll saw of the instance's place in a cluster, for the timeline: its roles ("payments=PRIMARY;..."
-- ordered by group name) and a failover cluster instance's owner node. NULL when not read. A change between two
-- polls is a failover or an owner move (ifi_changes fields availability_role and cluster_owner).
ALTER TABLE polls ADD COLUMN availability_roles TEXT NULL;
ALTER TABLE polls ADD COLUMN cluster_owner TEXT NULL;
