-- Up Migration

-- Payments through an association both trust (services/federation/through.ts, docs/federation.md
-- "Through an association both trust"). A of A pays C's member through B, linked with both:
--   A: an 'out' row on its link with B, as a one-hop payment, with the condition and where the
--      payment ends (route_*: C's address, name, currency, the amount there and B's terms with C);
--   B: an 'in' row on its link with A, 'held' while C has not decided (B's clearing wallet for A ->
--      its clearing wallet for C posted), and an 'out' row on its link with C, 'prepared', pointing
--      at it (forward_of), which B's recovery asks C about as any payment in doubt;
--   C: an 'in' row, as a one-hop payment, with the condition it fulfilled.
ALTER TABLE federation_payments
  DROP CONSTRAINT federation_payments_state_check,
  ADD CONSTRAINT federation_payments_state_check CHECK (state IN ('prepared', 'held', 'committed', 'aborted', 'ended')),
  ADD CONSTRAINT federation_payments_held_in CHECK (state <> 'held' OR direction = 'in'),
  -- SHA-256 of the fulfilment only the payee's side can make, and the fulfilment once it is known.
  ADD COLUMN condition bytea CHECK (length(condition) = 32),
  ADD COLUMN fulfillment bytea CHECK (length(fulfillment) = 32),
  ADD CONSTRAINT federation_payments_fulfilled CHECK (fulfillment IS NULL OR (condition IS NOT NULL AND state = 'committed')),
  -- B's payment on to C: the payment in from A it forwards.
  ADD COLUMN forward_of bigint UNIQUE REFERENCES federation_payments(id),
  ADD CONSTRAINT federation_payments_forward_out CHECK (forward_of IS NULL OR (direction = 'out' AND condition IS NOT NULL)),
  -- The payer's association, when it is not the link's peer (a payment forwarded by it).
  ADD COLUMN payer_association text CHECK (char_length(payer_association) <= 200),
  -- A's payment through B: where it ends, as B's quote said it.
  ADD COLUMN route_url text,
  ADD COLUMN route_name text,
  ADD COLUMN route_currency_symbol text,
  ADD COLUMN route_amount_cents bigint CHECK (route_amount_cents > 0),
  ADD COLUMN route_via_value_e4 bigint CHECK (route_via_value_e4 > 0),
  ADD COLUMN route_to_value_e4 bigint CHECK (route_to_value_e4 > 0),
  ADD CONSTRAINT federation_payments_route CHECK (
    (route_url IS NULL) = (route_amount_cents IS NULL) AND (route_url IS NULL OR (direction = 'out' AND condition IS NOT NULL)));

-- The movement of an 'out' row forwarded by B is its 'in' row's (clearing for A -> clearing for C).
ALTER TABLE federation_payments
  DROP CONSTRAINT federation_payments_known,
  ADD CONSTRAINT federation_payments_known CHECK (
    state = 'aborted' OR (wallet_id IS NOT NULL AND amount_cents IS NOT NULL AND (movement_id IS NOT NULL OR forward_of IS NOT NULL)));

-- The secret from which this server makes the fulfilment of a payment paid to one of its members
-- through another association: HMAC-SHA-256(secret, payment id). Made once, shared by every instance.
CREATE TABLE federation_condition_secret (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  secret bytea NOT NULL CHECK (length(secret) = 32)
);
