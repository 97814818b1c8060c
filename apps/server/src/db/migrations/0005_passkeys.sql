-- Up Migration

-- Biometric login on the web is a passkey: the device's platform authenticator keeps the private
-- key behind the fingerprint or face check, and the server keeps only its public key. A password
-- change leaves passkeys alone (Monujo's saved password broke on every change).
CREATE TABLE passkeys (
  credential_id text PRIMARY KEY CHECK (length(credential_id) BETWEEN 1 AND 1024),
  member_id bigint NOT NULL REFERENCES members(id) ON DELETE CASCADE,
  public_key bytea NOT NULL,
  -- Signature counter: a value that does not grow reveals a cloned authenticator.
  counter bigint NOT NULL DEFAULT 0 CHECK (counter >= 0),
  transports text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX passkeys_member ON passkeys(member_id);

-- WebAuthn challenges, single use (deleted when answered) and short-lived, kept here rather than
-- in memory so that any server instance can check the answer to another instance's challenge.
CREATE TABLE webauthn_challenges (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  purpose text NOT NULL CHECK (purpose IN ('register', 'login')),
  -- The member registering; null for a login, whose member is the credential's.
  member_id bigint REFERENCES members(id) ON DELETE CASCADE,
  challenge text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX webauthn_challenges_expiry ON webauthn_challenges(expires_at);
