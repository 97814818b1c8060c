-- Up Migration

-- Web Push (docs/architecture.md "Live money"): the devices that asked to be notified, and their deliveries in the
-- outbox of migration 0012. A device's subscription is its member's opt-in: it gets every kind the
-- e-mails can tell (payment_received, topup_credited, wallet_approved, reconversion_paid), mapped
-- from events exactly as e-mails are.

-- One row per browser subscription (PushSubscription.toJSON()): where the push service takes the
-- message, and the keys it is encrypted for (RFC 8291). The endpoint is the browser's own: one
-- device re-subscribed by another member moves to that member (services/push-subscriptions.ts).
-- `subscribed_at` is refreshed at each subscription: the member's oldest devices give way first.
CREATE TABLE push_subscriptions (
  id bigserial PRIMARY KEY,
  member_id bigint NOT NULL REFERENCES members(id),
  -- ASCII (the server stores the URL as WHATWG URL serialises it), short enough for its index.
  endpoint text NOT NULL UNIQUE CHECK (octet_length(endpoint) <= 2048),
  p256dh text NOT NULL,
  auth text NOT NULL,
  subscribed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_subscriptions_member ON push_subscriptions (member_id, subscribed_at);

-- A push delivery is one row per event and device; an e-mail one stays one per event. A device
-- unsubscribed (or gone: the push service answered 404/410) takes its messages not sent with it.
ALTER TABLE notification_deliveries
  ADD COLUMN subscription_id bigint REFERENCES push_subscriptions(id) ON DELETE CASCADE,
  DROP CONSTRAINT notification_deliveries_event_id_channel_key,
  DROP CONSTRAINT notification_deliveries_channel_check,
  ADD CONSTRAINT notification_deliveries_channel_check CHECK (channel IN ('email', 'push')),
  ADD CONSTRAINT notification_deliveries_push_device CHECK ((channel = 'push') = (subscription_id IS NOT NULL));
CREATE UNIQUE INDEX notification_deliveries_email ON notification_deliveries (event_id, channel) WHERE subscription_id IS NULL;
CREATE UNIQUE INDEX notification_deliveries_push ON notification_deliveries (event_id, subscription_id) WHERE subscription_id IS NOT NULL;
CREATE INDEX notification_deliveries_subscription ON notification_deliveries (subscription_id) WHERE subscription_id IS NOT NULL;

-- The event's e-mails as before, and a push to every device of the member, in the event's own
-- transaction. `FOR KEY SHARE`: a device removed by a transaction that commits meanwhile is skipped
-- rather than referenced (a plain read could still see it, and the foreign key would then fail
-- the payment itself); one being removed waits for the payment instead, and takes its row along.
CREATE OR REPLACE FUNCTION notification_deliveries_of_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  k text := CASE
    WHEN NEW.kind IN ('payment_received', 'topup_credited', 'wallet_approved') THEN NEW.kind
    WHEN NEW.kind = 'reconversion_stage' AND NEW.stage = 'paid' THEN 'reconversion_paid'
  END;
BEGIN
  IF k IS NOT NULL THEN
    INSERT INTO notification_deliveries (event_id, channel, kind)
    SELECT NEW.id, p.channel, k FROM notification_preferences p WHERE p.member_id = NEW.member_id AND p.kind = k;
    INSERT INTO notification_deliveries (event_id, channel, kind, subscription_id)
    SELECT NEW.id, 'push', k, s.id FROM push_subscriptions s WHERE s.member_id = NEW.member_id FOR KEY SHARE;
  END IF;
  RETURN NULL;
END $$;
