-- Up Migration

-- Payments across a link between associations (services/federation/payments.ts, docs/federation.md).

-- A clearing wallet: one per link and backend, the association's side of what crosses the link.
-- The payer's side posts its member -> its clearing wallet; the payee's side posts its clearing
-- wallet -> its member. Its accounts have no floor or ceiling: its balance is what this side owes
-- the other (above zero) or is owed (below), and the link's trust limit, not the ledger's bounds,
-- caps it.
ALTER TABLE wallets
  ADD COLUMN federation_link_id bigint REFERENCES federation_links(id),
  DROP CONSTRAINT wallets_role_check,
  ADD CONSTRAINT wallets_role_check CHECK (role IN ('member', 'issuance', 'safe', 'clearing')),
  ADD CONSTRAINT wallets_clearing_link CHECK ((role = 'clearing') = (federation_link_id IS NOT NULL));
DROP INDEX wallets_one_system_role;
CREATE UNIQUE INDEX wallets_one_system_role ON wallets(backend_id, role) WHERE role IN ('issuance', 'safe');
CREATE UNIQUE INDEX wallets_one_clearing ON wallets(backend_id, federation_link_id) WHERE role = 'clearing';

-- What this side holds of the other's currency, net, in cents of it: what the other's members paid
-- this side's (their amounts) less what this side's paid theirs. The trust limit caps it when a
-- payment comes in. Each side's clearing balance equals the other's record of it here.
ALTER TABLE federation_links ADD COLUMN held_cents bigint NOT NULL DEFAULT 0;

-- One payment across a link, as this side knows it. Its id is the payer's side's, the same on
-- both sides.
--   out (this side's member pays): prepared once the member's money is held (member -> clearing),
--       committed once the other side committed, aborted once the other side answered that it
--       never will (the hold returned: clearing -> member).
--   in (this side's member is paid): committed (clearing -> member, in the transaction that
--       answers the payer's side) or aborted (refused, or asked about before it arrived: then it
--       never will be). Never prepared: this side decides in one transaction.
CREATE TABLE federation_payments (
  id bigserial PRIMARY KEY,
  public_id text NOT NULL CHECK (public_id ~ '^fp_[A-Za-z0-9_-]{16,40}$'),
  link_id bigint NOT NULL REFERENCES federation_links(id),
  direction text NOT NULL CHECK (direction IN ('out', 'in')),
  state text NOT NULL CHECK (state IN ('prepared', 'committed', 'aborted')),
  -- This side's member's wallet (the payer's, or the payee's), and the other side's wallet and member's name.
  wallet_id text REFERENCES wallets(id),
  peer_wallet_id text,
  peer_member_name text,
  -- The amount in this side's currency and in the other's, and the values both counted.
  amount_cents bigint CHECK (amount_cents > 0),
  peer_amount_cents bigint CHECK (peer_amount_cents > 0),
  our_value_e4 bigint CHECK (our_value_e4 > 0),
  their_value_e4 bigint CHECK (their_value_e4 > 0),
  memo text NOT NULL DEFAULT '' CHECK (char_length(memo) <= 50),
  -- The payment request it pays on the payee's side (a till's), if any.
  request_public_id text,
  -- out: the member's idempotency key (their retry finds this row).
  idempotency_key text,
  request_hash text,
  -- out: the hold; in: the credit. And out, aborted after the hold: its return.
  movement_id bigint UNIQUE REFERENCES movements(id),
  return_movement_id bigint UNIQUE REFERENCES movements(id),
  -- Why it was refused (a message id of the domain's), when it was.
  refusal text,
  -- out, prepared: when the recovery asks the other side next (services/federation/recovery.ts).
  next_check_at timestamptz,
  checks int NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (link_id, direction, public_id),
  UNIQUE (wallet_id, idempotency_key),
  CONSTRAINT federation_payments_known CHECK (state = 'aborted' OR (wallet_id IS NOT NULL AND amount_cents IS NOT NULL AND movement_id IS NOT NULL)),
  CONSTRAINT federation_payments_out CHECK (direction = 'in' OR (wallet_id IS NOT NULL AND idempotency_key IS NOT NULL)),
  CONSTRAINT federation_payments_in CHECK (direction = 'out' OR state <> 'prepared'),
  CONSTRAINT federation_payments_returned CHECK (return_movement_id IS NULL OR (direction = 'out' AND state = 'aborted')),
  CONSTRAINT federation_payments_checked CHECK ((next_check_at IS NOT NULL) = (state = 'prepared'))
);
CREATE INDEX federation_payments_due ON federation_payments (next_check_at) WHERE state = 'prepared';
CREATE INDEX federation_payments_link ON federation_payments (link_id, created_at DESC);
