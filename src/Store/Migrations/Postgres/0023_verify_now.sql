-- IfiDashboard store: "verify now" asked while a collector held the instance's lease. That poll may have read the
-- instance before the fix it is asked to verify, so completing the lease makes the instance due again at this time
-- instead of a poll interval later, and clears it (docs/api.md, "Verify now").
ALTER TABLE instances ADD COLUMN verify_requested_at TEXT NULL;
