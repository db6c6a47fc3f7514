-- IfiDashboard store, SQLite: the certificate an instance's server certificate is pinned to.
--
-- The dashboard's form and Test connection always offered "Server certificate path" (Encrypt=Strict trusts a
-- self-signed certificate only when pinned), but no column kept it: Test connection succeeded, and every later poll
-- of the saved instance ran without the pin and failed. A path on the collector's machine, never the certificate.
ALTER TABLE instances ADD COLUMN server_certificate_path TEXT;
