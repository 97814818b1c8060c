-- Up Migration

-- A link that lets a member choose their first password (the first administrator's, made by
-- setup), not change one they had: its page says so, and no "your password was changed" mail
-- follows, since there was none before.
ALTER TABLE password_resets ADD COLUMN first_password boolean NOT NULL DEFAULT false;
