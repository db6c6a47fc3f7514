-- IfiDashboard store, SQLite: remediation packs (docs/remediation.md).
--
-- A pack generated from the grid or an instance page records which instances it covered, by whom and when, and the
-- IFI state each was to reach. The instance shows "remediation pending" until a poll after generated_at observes
-- that state (src/Server/Store/Remediation/RemediationPacks.cs); nothing here is ever updated, so the record of what
-- was handed out stays as it was. The generation itself is also in the audit log (remediation.generated).
CREATE TABLE remediation_packs (
    id           INTEGER PRIMARY KEY,
    generated_at TEXT    NOT NULL,
    generated_by TEXT    NOT NULL,
    -- The view it was made from: the grid's query string, or "instance <id>".
    scope        TEXT    NOT NULL
);

CREATE TABLE remediation_pack_instances (
    pack_id     INTEGER NOT NULL REFERENCES remediation_packs (id),
    instance_id INTEGER NOT NULL REFERENCES instances (id),
    -- Grant or Revoke, and the IFI state (Enabled or Disabled) a poll must show to confirm it.
    action      TEXT    NOT NULL,
    desired_ifi TEXT    NOT NULL,
    PRIMARY KEY (pack_id, instance_id)
);
CREATE INDEX ix_remediation_pack_instances_instance ON remediation_pack_instances (instance_id, pack_id);
