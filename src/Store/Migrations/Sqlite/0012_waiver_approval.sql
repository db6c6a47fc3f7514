-- IfiDashboard store, Sqlite: four-eyes approval of waivers (Auth:WaiversNeedApproval).
--
-- needs_approval is fixed when the waiver is granted, so switching the setting later neither lifts waivers already in
-- force nor puts pending ones into force. A waiver that needs approval counts only once someone other than its author
-- has approved it; revoking a pending waiver is how it is rejected.
ALTER TABLE waivers ADD COLUMN needs_approval INTEGER NOT NULL DEFAULT 0;
ALTER TABLE waivers ADD COLUMN approved_by TEXT NULL;
ALTER TABLE waivers ADD COLUMN approved_at TEXT NULL;
