-- Up Migration

-- Step-up authentication: a session proves its member's password (or a passkey) again before it
-- may add a lasting credential, so a stolen session token cannot mint one. reauth_at is the
-- time of the last such proof: the password or passkey login that opened the session, or a
-- later confirmation. A session opened any other way (a native device login) starts without one.
ALTER TABLE sessions ADD COLUMN reauth_at timestamptz;
-- The credential that opened the session ("password", a passkey id, "device:<uuid>"), so that
-- the member's list of devices can say which one is this device.
ALTER TABLE sessions ADD COLUMN opened_by text;

-- A human name for each credential, from the browser that registered it ("Chrome on Android").
ALTER TABLE passkeys ADD COLUMN name text NOT NULL DEFAULT '' CHECK (length(name) <= 100);
ALTER TABLE device_logins ADD COLUMN name text NOT NULL DEFAULT '' CHECK (length(name) <= 100);

-- Old rate-limit windows and answered-or-expired challenges are swept on a schedule.
CREATE INDEX rate_limits_window ON rate_limits(window_start);
