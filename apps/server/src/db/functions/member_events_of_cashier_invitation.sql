CREATE OR REPLACE FUNCTION member_events_of_cashier_invitation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO member_events (member_id, kind, wallet_id) VALUES (NEW.member_id, 'cashier_invited', NEW.wallet_id);
  RETURN NULL;
END $$;
