-- IfiDashboard store: files a message carries (the monthly evidence report's CSV and JSON). A JSON array of
-- {"fileName", "contentType", "content" (base64)}, NULL for the alert mails, which carry none. Stored with the row, so
-- a retry or another server sends the very bytes that were decided on.
ALTER TABLE alert_outbox ADD COLUMN attachments TEXT NULL;
