-- A movement tells the member who receives it and the member who sent it.
CREATE OR REPLACE FUNCTION member_events_of_movement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  payer bigint;
  payee bigint;
BEGIN
  SELECT member_id INTO payer FROM wallets WHERE id = NEW.payer_wallet_id;
  SELECT member_id INTO payee FROM wallets WHERE id = NEW.payee_wallet_id;
  IF payee IS NOT NULL AND NEW.kind IN ('payment', 'topup') THEN
    INSERT INTO member_events (member_id, kind, wallet_id, movement_id, created_at)
    VALUES (payee, CASE NEW.kind WHEN 'payment' THEN 'payment_received' ELSE 'topup_credited' END, NEW.payee_wallet_id, NEW.id, NEW.created_at);
  END IF;
  IF payer IS NOT NULL AND NEW.kind IN ('payment', 'reconversion') THEN
    INSERT INTO member_events (member_id, kind, wallet_id, movement_id, created_at, read_at)
    VALUES (payer, CASE NEW.kind WHEN 'payment' THEN 'payment_sent' ELSE 'reconversion_sent' END, NEW.payer_wallet_id, NEW.id, NEW.created_at, NEW.created_at);
  END IF;
  RETURN NULL;
END $$;
