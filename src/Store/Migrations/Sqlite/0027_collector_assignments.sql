-- IfiDashboard store, SQLite: which collectors may lease which instances, and timeline changes that disagree with the
-- instance's recent history (src/Server/Store/Collectors/AssignmentStore.cs, src/Server/Store/Ingestion/EngineChange.cs).
--
-- collector_assignments holds the rules an Administrator saved (the collectors page, PUT /api/v1/collector-assignments),
-- in order: the first rule that matches an instance assigns it to the collectors it names. Rules from configuration
-- (Assignments:Rules) come before them and are not stored. Values and collectors are JSON arrays of text.
-- ifi_changes.doubt says why a change seen in one poll disagrees with what came before (IFI or the service account
-- changed without a restart, another collector than the last polled it); NULL for a change that agrees.
CREATE TABLE collector_assignments (
    position INTEGER PRIMARY KEY,
    match_kind TEXT NOT NULL,
    match_values TEXT NOT NULL,
    collectors TEXT NOT NULL
);

ALTER TABLE ifi_changes ADD COLUMN doubt TEXT NULL;
