-- Instances LISTEN on this channel; the payload is the member's id. NOTIFY is sent at commit
-- only, and one notification per member and transaction is enough.
CREATE OR REPLACE FUNCTION member_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('mutua_member_events', NEW.member_id::text);
  RETURN NULL;
END $$;
