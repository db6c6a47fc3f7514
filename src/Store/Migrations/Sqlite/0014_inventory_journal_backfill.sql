-- IfiDashboard store, Sqlite: inventory changes are journaled by the writes that make them from now on (the changes
-- feed no longer compares instances with the journal when it is read). Journal once, here, what the last read had not
-- recorded yet, as that comparison did: an update for a higher version, a creation for an instance never recorded, a
-- retirement not recorded. Updates first, so an instance first journaled here has its creation before its retirement.
INSERT INTO change_journal (kind, instance_id, change, occurred_at, recorded_at, version)
SELECT 'inventory', i.id, 'updated', COALESCE(i.updated_at, i.created_at), COALESCE(i.updated_at, i.created_at), i.version
FROM instances i
WHERE i.retired_at IS NULL
  AND EXISTS (SELECT 1 FROM change_journal j WHERE j.kind = 'inventory' AND j.instance_id = i.id)
  AND i.version > (SELECT MAX(j.version) FROM change_journal j WHERE j.kind = 'inventory' AND j.instance_id = i.id)
ORDER BY i.id;

INSERT INTO change_journal (kind, instance_id, change, occurred_at, recorded_at, version)
SELECT 'inventory', i.id, 'created', i.created_at, i.created_at, i.version
FROM instances i
WHERE NOT EXISTS (SELECT 1 FROM change_journal j WHERE j.kind = 'inventory' AND j.instance_id = i.id)
ORDER BY i.id;

INSERT INTO change_journal (kind, instance_id, change, occurred_at, recorded_at, version)
SELECT 'inventory', i.id, 'retired', i.retired_at, i.retired_at, i.version
FROM instances i
WHERE i.retired_at IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM change_journal j WHERE j.kind = 'inventory' AND j.instance_id = i.id AND j.change = 'retired')
ORDER BY i.id;
