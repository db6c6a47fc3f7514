-- IfiDashboard store: how many polls were stored for an instance, counted by every stored poll, the latest or one
-- delivered late (a late snapshot adds growth events, history, without moving instance_state). The assessment reads an
-- instance's files, TDE, IFI history and growth events again only when this count or its state row changed
-- (docs/decisions/0013-incremental-assessment.md).
ALTER TABLE instance_state ADD COLUMN polls_stored BIGINT NOT NULL DEFAULT 0;
