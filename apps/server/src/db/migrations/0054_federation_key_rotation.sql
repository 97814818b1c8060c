-- Up Migration

-- This server's federation keys, and the other servers' keys each link held before its present
-- one (services/federation/key-rotation.ts, docs/federation.md "Key rotation and revocation").

-- Every key this server has signed with: one current (the well-known description's, the one new
-- links learn), the retired ones (replaced by a newer key: each still signs to a linked server
-- that has not acknowledged its successor, and its private half is erased once every live link
-- did) and the revoked ones (its owners said it leaked: never used again, its private half erased
-- at once). Read at each use by every instance: none keeps a key in memory.
CREATE TABLE federation_keys (
  id bigserial PRIMARY KEY,
  public_key bytea NOT NULL UNIQUE CHECK (length(public_key) = 32),
  -- PKCS#8 DER; null once no link needs it any more, and for a revoked key.
  private_key bytea,
  state text NOT NULL CHECK (state IN ('current', 'retired', 'revoked')),
  created_at timestamptz NOT NULL DEFAULT now(),
  -- When a newer key took its place (retired or revoked then), and when its owners revoked it.
  retired_at timestamptz,
  revoked_at timestamptz,
  CONSTRAINT federation_keys_current_signs CHECK (state <> 'current' OR (private_key IS NOT NULL AND retired_at IS NULL)),
  CONSTRAINT federation_keys_revoked_gone CHECK (state <> 'revoked' OR (private_key IS NULL AND revoked_at IS NOT NULL AND retired_at IS NOT NULL)),
  CONSTRAINT federation_keys_retired_when CHECK (state = 'current' OR retired_at IS NOT NULL)
);
CREATE UNIQUE INDEX federation_keys_one_current ON federation_keys ((true)) WHERE state = 'current';

INSERT INTO federation_keys (public_key, private_key, state, created_at) SELECT public_key, private_key, 'current', created_at FROM federation_key;
DROP TABLE federation_key;

-- The key the other side knows this server by, when it is not the current one: set on every
-- live link when the current key is replaced, and back to null once the other side acknowledged
-- the newest. Messages to that side are signed with it (unless it was revoked), and so are the
-- answers to its messages, so that it understands this server until it was told.
ALTER TABLE federation_links ADD COLUMN our_key_id bigint REFERENCES federation_keys (id);

-- The other side's keys a link held before its present one: rotated (its server announced a
-- newer key, proved by both) or revoked (this side's owners replaced the link's key with the one
-- the other side's owners read aloud: every older key of the link is revoked then). None is
-- accepted again; a revoked one is never taken back as the link's key either. `replaced_by`
-- says who replaced it: the other side's announcement, or this side's owners.
CREATE TABLE federation_peer_keys (
  link_id bigint NOT NULL REFERENCES federation_links (id) ON DELETE CASCADE,
  public_key bytea NOT NULL CHECK (length(public_key) = 32),
  state text NOT NULL CHECK (state IN ('rotated', 'revoked')),
  replaced_by text NOT NULL CHECK (replaced_by IN ('peer', 'owners')),
  replaced_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  PRIMARY KEY (link_id, public_key),
  CONSTRAINT federation_peer_keys_revoked_when CHECK ((state = 'revoked') = (revoked_at IS NOT NULL))
);
-- A signer's link when it signs with a key its link held before (answers are signed for that link).
CREATE INDEX federation_peer_keys_key ON federation_peer_keys (public_key);
