-- A wallet request approved or discarded by an administrator tells its member.
CREATE OR REPLACE FUNCTION member_events_of_wallet() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO member_events (member_id, kind, wallet_id)
  VALUES (NEW.member_id, CASE NEW.status WHEN 'active' THEN 'wallet_approved' ELSE 'wallet_discarded' END, NEW.id);
  RETURN NULL;
END $$;
