-- IfiDashboard store: a poll a collector made while it held an instance is stored when delivered, also after another
-- collector has taken the instance over (src/Server/Store/Ingestion/SnapshotStore.cs): the takeover that ended the
-- collector's tenure is found by instance and the collector it was taken from.
CREATE INDEX ix_collector_takeovers_instance ON collector_takeovers (instance_id, taken_from, taken_at);
