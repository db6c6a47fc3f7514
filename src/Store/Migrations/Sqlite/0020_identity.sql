-- IfiDashboard store, SQLite: people are recorded by identity, issuer and subject, and their display name is only
-- shown (docs/security.md#identity). Names change at the identity provider and two people can share one, so four-eyes
-- and "who did this" compare the identity.
--
-- An identity is `subject@issuer`: for OpenID Connect the ID token's `oid` (Entra ID) or else its `sub`, at the
-- token's issuer; for a trusted proxy the user name in lower case at `proxy`; for an API key its prefix at `api-key`;
-- for a collector's key the collector's name at `collector`. System work and anonymous requests have none (NULL).
--
-- Rows written before this migration keep their text, with a NULL identity. How an old row maps:
-- - `actor` (audit_log), `author` (waivers) and `approved_by` hold the display name of the time (Auth:Oidc:NameClaim,
--   `name` by default), which may have changed since or be shared by someone else: only the sign-in entries around
--   it (`sign-in`, with the address and time) tell who it was;
-- - in proxy mode that name was the proxy's user name, so the identity is `<name in lower case>@proxy`;
-- - `<key name> (API key <prefix>)` is `<prefix>@api-key`, `collector <name>` is `<name>@collector`;
-- - `system` and `anonymous` have none.
-- A waiver granted before this migration (author_identity NULL) is compared by name for four-eyes, ignoring case, as
-- it was when it was granted.
ALTER TABLE audit_log ADD COLUMN actor_identity TEXT NULL;
CREATE INDEX ix_audit_log_actor_identity ON audit_log (actor_identity, id);
ALTER TABLE waivers ADD COLUMN author_identity TEXT NULL;
ALTER TABLE waivers ADD COLUMN approved_by_identity TEXT NULL;
