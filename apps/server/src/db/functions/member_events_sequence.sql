-- Numbers an event in its member's sequence (migration 0030). The update locks the member's row
-- until the transaction ends, so numbers commit in the order they are drawn and without gaps.
-- Transactions that write events for several members write them in member id order (see
-- member_events_of_movement and ledger_post_batch), after their accounts, so they never deadlock.
CREATE OR REPLACE FUNCTION member_events_sequence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE member_event_streams SET seq = seq + 1 WHERE member_id = NEW.member_id RETURNING seq INTO NEW.seq;
  RETURN NEW;
END $$;
