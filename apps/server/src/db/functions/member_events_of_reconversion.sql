-- A reconversion moved on by the association tells the member who sent it.
CREATE OR REPLACE FUNCTION member_events_of_reconversion() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO member_events (member_id, kind, wallet_id, movement_id, stage)
  SELECT w.member_id, 'reconversion_stage', w.id, m.id, NEW.status
    FROM movements m JOIN wallets w ON w.id = m.payer_wallet_id
   WHERE m.id = NEW.movement_id AND w.member_id IS NOT NULL;
  RETURN NULL;
END $$;
