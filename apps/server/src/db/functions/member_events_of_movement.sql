-- A movement tells the member who receives it and the member who sent it (dues: their payer's
-- other screens, as a payment sent). Their events are
-- written in member id order: each takes its member's sequence row (member_events_sequence), and
-- two movements between the same two members' other wallets must take them in the same order.
CREATE OR REPLACE FUNCTION member_events_of_movement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  payer bigint;
  payee bigint;
BEGIN
  SELECT member_id INTO payer FROM wallets WHERE id = NEW.payer_wallet_id;
  SELECT member_id INTO payee FROM wallets WHERE id = NEW.payee_wallet_id;
  INSERT INTO member_events (member_id, kind, wallet_id, movement_id, created_at, read_at)
  SELECT e.member_id, e.kind, e.wallet_id, NEW.id, NEW.created_at, e.read_at
    FROM (VALUES
      (payee, CASE NEW.kind WHEN 'payment' THEN 'payment_received' WHEN 'topup' THEN 'topup_credited' END, NEW.payee_wallet_id, NULL::timestamptz),
      (payer, CASE NEW.kind WHEN 'payment' THEN 'payment_sent' WHEN 'dues' THEN 'payment_sent' WHEN 'reconversion' THEN 'reconversion_sent' END, NEW.payer_wallet_id, NEW.created_at)
    ) e(member_id, kind, wallet_id, read_at)
   WHERE e.member_id IS NOT NULL AND e.kind IS NOT NULL
   ORDER BY e.member_id, e.kind;
  RETURN NULL;
END $$;
