-- An ask for money told to both sides in its own transaction (migration 0031): the member asked
-- when it is made, the asker when it is declined, the member asked when it is withdrawn.
CREATE OR REPLACE FUNCTION member_events_of_ask() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO member_events (member_id, kind, wallet_id, request_id) VALUES (NEW.asked_member_id, 'money_asked', NEW.wallet_id, NEW.id);
    RETURN NULL;
  END IF;
  IF NEW.status = 'declined' THEN
    INSERT INTO member_events (member_id, kind, wallet_id, request_id) VALUES (NEW.created_by, 'ask_declined', NEW.wallet_id, NEW.id);
  ELSIF NEW.status = 'cancelled' THEN
    INSERT INTO member_events (member_id, kind, wallet_id, request_id) VALUES (NEW.asked_member_id, 'ask_cancelled', NEW.wallet_id, NEW.id);
  END IF;
  -- Answered (or withdrawn), the ask is no longer news waiting in the asked member's bell.
  UPDATE member_events SET read_at = now() WHERE request_id = NEW.id AND kind = 'money_asked' AND read_at IS NULL;
  RETURN NULL;
END $$;
