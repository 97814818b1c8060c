-- Up Migration

-- Settling a link (services/federation/settlements.ts, docs/federation.md "Settlement"). What one
-- association's members paid the other's stays owed between the two: the payer's side's clearing
-- wallet holds it, the payee's side holds as much of the payer's currency. The boards settle it in
-- euros; a settlement records it on both sides, each in its own ledger: the side that owes moves
-- its clearing wallet toward zero into its issuance wallet (its currency redeemed), the other moves
-- its issuance wallet into its clearing wallet (what it issued to its members is now backed), and
-- what each side holds of the other's currency falls by as much.

-- A movement of its own kind: the books and the figures tell it apart from a member's payment.
ALTER TABLE movements DROP CONSTRAINT movements_kind_check;
ALTER TABLE movements ADD CONSTRAINT movements_kind_check CHECK (kind IN ('payment', 'topup', 'reconversion', 'retirement', 'opening', 'dues', 'settlement'));

-- One row per settlement on each side, with the id its proposer chose (the same on both sides).
-- origin: who proposed it; direction: from this side, pay (it owes) or receive; the amount in this
-- side's currency and in the other's, and which of the two was given (the other converted from it,
-- at the values stored, as this side counted them when it proposed, recorded or posted it).
-- told: the other side acknowledged this side's last step on it (the proposal, its withdrawal, the
-- owners' answer); until then a row of federation_outbox (kind 'settlement') tells it again.
CREATE TABLE federation_settlements (
  id bigserial PRIMARY KEY,
  public_id text NOT NULL CHECK (public_id ~ '^fs_[A-Za-z0-9_-]{16,40}$'),
  link_id bigint NOT NULL REFERENCES federation_links (id),
  origin text NOT NULL CHECK (origin IN ('us', 'them')),
  direction text NOT NULL CHECK (direction IN ('pay', 'receive')),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  peer_amount_cents bigint NOT NULL CHECK (peer_amount_cents > 0),
  given text NOT NULL CHECK (given IN ('ours', 'theirs')),
  our_value_e4 bigint NOT NULL CHECK (our_value_e4 > 0),
  their_value_e4 bigint NOT NULL CHECK (their_value_e4 > 0),
  note text NOT NULL DEFAULT '' CHECK (char_length(note) <= 200),
  state text NOT NULL CHECK (state IN ('proposed', 'withdrawing', 'withdrawn', 'declined', 'accepted')),
  told boolean NOT NULL,
  -- This side's owner who proposed it; who accepted, declined or withdrew it (null for the other side's doing).
  proposed_by bigint REFERENCES members (id),
  answered_by bigint REFERENCES members (id),
  answered_at timestamptz,
  -- When this side posted it: accepted, and only then.
  posted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (link_id, public_id),
  CONSTRAINT federation_settlements_posted CHECK ((state = 'accepted') = (posted_at IS NOT NULL)),
  CONSTRAINT federation_settlements_withdrawing CHECK (state <> 'withdrawing' OR origin = 'us')
);
CREATE INDEX federation_settlements_of_link ON federation_settlements (link_id, created_at DESC);

-- The movements a settlement posted on this side: one per backend whose clearing wallet it moved,
-- each with its share of the amount in the other currency (the shares add up to the settlement's).
CREATE TABLE federation_settlement_movements (
  settlement_id bigint NOT NULL REFERENCES federation_settlements (id),
  movement_id bigint NOT NULL UNIQUE REFERENCES movements (id),
  peer_amount_cents bigint NOT NULL CHECK (peer_amount_cents >= 0),
  PRIMARY KEY (settlement_id, movement_id)
);
