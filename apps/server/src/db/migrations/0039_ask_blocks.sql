-- Up Migration

-- A member stops another from asking them for money (services/payments/asks.ts): one who asked
-- and should not again. The blocked member is not told: their asks are refused as those to any
-- member they could not ask ("This member cannot be asked for money"), and blocking declines the
-- asks of theirs still open.
CREATE TABLE ask_blocks (
  member_id bigint NOT NULL REFERENCES members(id),
  blocked_id bigint NOT NULL REFERENCES members(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (member_id, blocked_id),
  CHECK (member_id <> blocked_id)
);

-- The caps on open asks (one asker on one member, and everybody on one member) are counted over
-- the open asks waiting on a member.
CREATE INDEX payment_requests_asked_open ON payment_requests (asked_member_id, created_by) WHERE asked_member_id IS NOT NULL AND status = 'open';
