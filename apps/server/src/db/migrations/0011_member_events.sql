-- Up Migration

-- What happened to a member, for their open apps (Server-Sent Events), their notification centre,
-- and later their inbox and phone: the transactional outbox of docs/architecture.md "Live money".
-- The database writes each event itself, by trigger, in the transaction of its cause (a movement
-- posted, a reconversion moved on, a wallet approved or discarded), whichever code path caused it:
-- an event exists exactly when its cause committed, never for one rolled back.
CREATE TABLE member_events (
  id bigserial PRIMARY KEY,
  member_id bigint NOT NULL REFERENCES members(id),
  kind text NOT NULL CHECK (kind IN ('payment_received', 'payment_sent', 'topup_credited', 'reconversion_sent',
    'reconversion_stage', 'wallet_approved', 'wallet_discarded')),
  wallet_id text NOT NULL REFERENCES wallets(id),
  movement_id bigint REFERENCES movements(id),
  -- The reconversion's new stage, for reconversion_stage.
  stage text CHECK (stage IN ('sent', 'received', 'invoiced', 'paid')),
  -- The writing transaction: readers hand events out in the order their transactions became
  -- visible, not in id order (ids are taken before commit, so a later id can commit first).
  xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Events of the member's own doing are born read: they update other tabs, they notify nobody.
  read_at timestamptz,
  -- Every event but a wallet's concerns a movement (for a reconversion_stage, the reconversion's).
  CHECK ((kind IN ('wallet_approved', 'wallet_discarded')) = (movement_id IS NULL)),
  CHECK ((kind = 'reconversion_stage') = (stage IS NOT NULL))
);
-- The stream reads a member's events past a cursor; the notification centre pages them newest first.
CREATE INDEX member_events_stream ON member_events (member_id, xid, id);
CREATE INDEX member_events_unread ON member_events (member_id, id) WHERE read_at IS NULL;

-- Instances LISTEN on this channel; the payload is the member's id. NOTIFY is sent at commit
-- only, and one notification per member and transaction is enough.
CREATE FUNCTION member_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('mutua_member_events', NEW.member_id::text);
  RETURN NULL;
END $$;
CREATE TRIGGER member_events_notify AFTER INSERT ON member_events FOR EACH ROW EXECUTE FUNCTION member_events_notify();

-- A movement tells the member who receives it and the member who sent it.
CREATE FUNCTION member_events_of_movement() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER movements_member_events AFTER INSERT ON movements FOR EACH ROW EXECUTE FUNCTION member_events_of_movement();

-- A reconversion moved on by the association tells the member who sent it.
CREATE FUNCTION member_events_of_reconversion() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO member_events (member_id, kind, wallet_id, movement_id, stage)
  SELECT w.member_id, 'reconversion_stage', w.id, m.id, NEW.status
    FROM movements m JOIN wallets w ON w.id = m.payer_wallet_id
   WHERE m.id = NEW.movement_id AND w.member_id IS NOT NULL;
  RETURN NULL;
END $$;
CREATE TRIGGER reconversions_member_events AFTER UPDATE OF status ON reconversions
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION member_events_of_reconversion();

-- A wallet request approved or discarded by an administrator tells its member.
CREATE FUNCTION member_events_of_wallet() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO member_events (member_id, kind, wallet_id)
  VALUES (NEW.member_id, CASE NEW.status WHEN 'active' THEN 'wallet_approved' ELSE 'wallet_discarded' END, NEW.id);
  RETURN NULL;
END $$;
CREATE TRIGGER wallets_member_events AFTER UPDATE OF status ON wallets
  FOR EACH ROW WHEN (OLD.status = 'pending' AND NEW.status IN ('active', 'discarded') AND NEW.member_id IS NOT NULL)
  EXECUTE FUNCTION member_events_of_wallet();
