-- Up Migration

-- Payments in doubt ended by the owners (services/federation/doubt.ts, docs/federation.md
-- "Payments in doubt"). A payment the payer's side prepared (its member's money held) stays in
-- doubt while the other side does not say what it did; if that server never comes back, the
-- owners of the payer's side may end it after FEDERATION_DOUBT_DAYS: the hold is returned to the
-- member (state 'ended', its return in return_movement_id), the recovery stops asking, and the
-- other side is told until it answers.
ALTER TABLE federation_payments
  DROP CONSTRAINT federation_payments_state_check,
  ADD CONSTRAINT federation_payments_state_check CHECK (state IN ('prepared', 'committed', 'aborted', 'ended')),
  DROP CONSTRAINT federation_payments_returned,
  ADD CONSTRAINT federation_payments_returned CHECK (return_movement_id IS NULL OR (direction = 'out' AND state IN ('aborted', 'ended'))),
  -- out: when and by which owner it was ended, after how many whole days in doubt, and what the
  -- other side answered once told (null until then). in: when the payer's side said it ended it,
  -- the days it said, and what this side found: agreed (it had not made it, and never will) or
  -- conflict (it had: its member was paid here while the payer was refunded there).
  ADD COLUMN ended_at timestamptz,
  ADD COLUMN ended_by bigint REFERENCES members(id),
  ADD COLUMN ended_after_days integer CHECK (ended_after_days >= 0),
  ADD COLUMN end_outcome text CHECK (end_outcome IN ('agreed', 'conflict')),
  ADD CONSTRAINT federation_payments_ended_out CHECK (direction = 'in' OR (state = 'ended') = (ended_at IS NOT NULL)),
  ADD CONSTRAINT federation_payments_ended_whole CHECK (state <> 'ended' OR (return_movement_id IS NOT NULL AND ended_after_days IS NOT NULL)),
  ADD CONSTRAINT federation_payments_ended_in CHECK (direction = 'out' OR (state <> 'ended' AND (ended_at IS NULL) = (end_outcome IS NULL)));

CREATE INDEX federation_payments_endings ON federation_payments (link_id, ended_at DESC) WHERE ended_at IS NOT NULL;

-- An ending the other side has not acknowledged yet: one row per payment, claimed by one instance
-- at a time (FOR UPDATE SKIP LOCKED) and tried again later on failure, apart from the payment's
-- and the link's rows so that waiting for the other server holds neither.
CREATE TABLE federation_endings_outbox (
  payment_id bigint PRIMARY KEY REFERENCES federation_payments (id) ON DELETE CASCADE,
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_try_at timestamptz NOT NULL DEFAULT now(),
  -- Why the last try failed: a message id of this server's (the other did not answer, or refused).
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX federation_endings_outbox_due ON federation_endings_outbox (next_try_at);
