-- Up Migration

-- Biometric login in a native shell whose WebView has no WebAuthn: the phone keeps a random
-- secret in its Keychain/Keystore behind the biometric check, and we keep its SHA-256. It is a
-- second credential of the member, never their password, revoked like a passkey.
CREATE TABLE device_logins (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  member_id bigint NOT NULL REFERENCES members(id) ON DELETE CASCADE,
  secret_hash bytea NOT NULL CHECK (length(secret_hash) = 32),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX device_logins_member ON device_logins(member_id);
