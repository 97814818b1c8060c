-- Up Migration

-- The console reads the audit log a page at a time, newest first, going on from the last entry
-- read (services/platform/audit.ts): without this index each page sorted the whole log, which
-- only ever grows.
CREATE INDEX audit_log_newest_first ON audit_log (at DESC, id DESC);
