-- Up Migration

-- A PIN of one wallet on one device. The device keeps the wallet password encrypted under a key
-- derived from the PIN and this row's device secret; the server releases the secret only for a
-- correct PIN proof and deletes the row after too many wrong ones, so the device's storage alone
-- cannot be brute-forced offline. The failure counter lives here, shared by every instance.
CREATE TABLE pins (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  member_id bigint NOT NULL REFERENCES members(id) ON DELETE CASCADE,
  wallet_id text NOT NULL REFERENCES wallets(id),
  -- SHA-256 of the device's PBKDF2 proof of the PIN.
  verifier bytea NOT NULL CHECK (length(verifier) = 32),
  device_secret bytea NOT NULL CHECK (length(device_secret) = 32),
  failures integer NOT NULL DEFAULT 0 CHECK (failures >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX pins_member ON pins(member_id);
