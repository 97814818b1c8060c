-- The event's e-mails as before, and a push to every device of the member, in the event's own
-- transaction. `FOR KEY SHARE`: a device removed by a transaction that commits meanwhile is skipped
-- rather than referenced (a plain read could still see it, and the foreign key would then fail
-- the payment itself); one being removed waits for the payment instead, and takes its row along.
-- When it queued any, the instances' notification workers are told at commit (the outbox's
-- channel, as a member's invitation tells it): an event that queues nothing, most payments of an
-- association whose members keep notifications off, wakes none of them.
CREATE OR REPLACE FUNCTION notification_deliveries_of_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  mails integer;
  pushes integer;
  k text := CASE
    WHEN NEW.kind IN ('payment_received', 'topup_credited', 'wallet_approved', 'money_asked', 'offer_paid', 'dues_unpaid') THEN NEW.kind
    WHEN NEW.kind = 'reconversion_stage' AND NEW.stage = 'paid' THEN 'reconversion_paid'
    -- A standing order's refused payment and its reminder to pay are one kind to the member.
    WHEN NEW.kind IN ('standing_order_refused', 'standing_order_due') THEN 'standing_order'
  END;
BEGIN
  IF k IS NOT NULL THEN
    INSERT INTO notification_deliveries (event_id, channel, kind)
    SELECT NEW.id, p.channel, k FROM notification_preferences p WHERE p.member_id = NEW.member_id AND p.kind = k;
    GET DIAGNOSTICS mails = ROW_COUNT;
    INSERT INTO notification_deliveries (event_id, channel, kind, subscription_id)
    SELECT NEW.id, 'push', k, s.id FROM push_subscriptions s WHERE s.member_id = NEW.member_id FOR KEY SHARE;
    GET DIAGNOSTICS pushes = ROW_COUNT;
    IF mails + pushes > 0 THEN
      PERFORM pg_notify('mutua_outbox', '');
    END IF;
  END IF;
  RETURN NULL;
END $$;
