-- Up Migration

-- Links between associations' servers (services/federation, docs/federation.md).

-- This server's signing key (Ed25519): one row, made the first time it is needed, so every
-- instance signs with the same key. The private key stays in the database, as the sessions'
-- secrets do; its public half is published at /.well-known/mutua-federation.
CREATE TABLE federation_key (
  only_one boolean PRIMARY KEY DEFAULT true CHECK (only_one),
  public_key bytea NOT NULL CHECK (length(public_key) = 32),
  -- PKCS#8 DER.
  private_key bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One link with another association's server, as this side sees it.
--   inviter: this side made the invitation (state invited, then accepted once the other side
--            answered, then active once this side's owners confirmed and the other side knew it);
--   invitee: this side accepted an invitation (accepted, then active when the other confirms).
-- Values are each currency's value in the common unit, in ten-thousandths; limits in cents of
-- the other side's currency.
CREATE TABLE federation_links (
  id bigserial PRIMARY KEY,
  public_id text NOT NULL UNIQUE CHECK (public_id ~ '^fl_[A-Za-z0-9_-]{16,40}$'),
  role text NOT NULL CHECK (role IN ('inviter', 'invitee')),
  state text NOT NULL CHECK (state IN ('invited', 'accepted', 'active')),
  -- Known once the other side answered.
  peer_url text,
  -- Known once the other side answered (the invitee knows them from the start).
  peer_name text,
  peer_currency_name text,
  peer_currency_symbol text,
  peer_key bytea UNIQUE CHECK (length(peer_key) = 32),
  -- The inviter's secret for the invited side, hashed (SHA-256): it opens the invitation, for one key.
  secret_hash bytea UNIQUE,
  -- This side's terms (null on the inviter's side until its owners confirm).
  our_value_e4 bigint CHECK (our_value_e4 > 0),
  their_value_e4 bigint CHECK (their_value_e4 > 0),
  trust_limit_cents bigint CHECK (trust_limit_cents >= 0),
  enabled boolean,
  -- The other side's terms, as it told them.
  peer_our_value_e4 bigint CHECK (peer_our_value_e4 > 0),
  peer_their_value_e4 bigint CHECK (peer_their_value_e4 > 0),
  peer_trust_limit_cents bigint CHECK (peer_trust_limit_cents >= 0),
  peer_enabled boolean,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT federation_links_terms CHECK (
    (our_value_e4 IS NULL) = (their_value_e4 IS NULL)
    AND (our_value_e4 IS NULL) = (trust_limit_cents IS NULL)
    AND (our_value_e4 IS NULL) = (enabled IS NULL)),
  CONSTRAINT federation_links_peer_terms CHECK (
    (peer_our_value_e4 IS NULL) = (peer_their_value_e4 IS NULL)
    AND (peer_our_value_e4 IS NULL) = (peer_trust_limit_cents IS NULL)
    AND (peer_our_value_e4 IS NULL) = (peer_enabled IS NULL)),
  -- Past the invitation, the other side's key is known; an active link has both sides' terms.
  CONSTRAINT federation_links_known CHECK (state = 'invited' OR (peer_key IS NOT NULL AND peer_url IS NOT NULL)),
  CONSTRAINT federation_links_active CHECK (state <> 'active' OR (our_value_e4 IS NOT NULL AND peer_our_value_e4 IS NOT NULL)),
  -- Kept until the link is active, so that an acceptance sent again (its answer lost) is answered again.
  CONSTRAINT federation_links_secret CHECK (secret_hash IS NULL OR (role = 'inviter' AND state <> 'active'))
);

-- The nonces of the signed messages received, kept as long as a message's signature is
-- accepted at all (a few minutes): a message seen once is refused again. One table, so that a
-- replay to another instance is refused too.
CREATE TABLE federation_nonces (
  key_id text NOT NULL,
  nonce text NOT NULL,
  seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (key_id, nonce)
);
CREATE INDEX federation_nonces_seen ON federation_nonces (seen_at);
