-- Up Migration

-- E-mail notifications (docs/architecture.md "Live money"): what each member asked to be told of, in which
-- language, and the deliveries still to make, written by trigger in the transaction of the event.

-- The language the server writes to the member in; null: the association's default language.
ALTER TABLE members ADD COLUMN language text CHECK (language IN ('en-US', 'fr-FR'));

-- One row per kind the member opted in to, per channel: no row, no message (opt-in).
CREATE TABLE notification_preferences (
  member_id bigint NOT NULL REFERENCES members(id),
  channel text NOT NULL CHECK (channel IN ('email')),
  kind text NOT NULL CHECK (kind IN ('payment_received', 'topup_credited', 'wallet_approved', 'reconversion_paid')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (member_id, channel, kind)
);

-- The outbox of messages to members, one row per event and channel. The worker of every instance
-- claims due rows (services/notification-worker.ts): `next_attempt_at` is both when a retry is due
-- and, while a row is being sent, the end of its claim, so that one lost with its instance is
-- taken up again then.
CREATE TABLE notification_deliveries (
  id bigserial PRIMARY KEY,
  event_id bigint NOT NULL REFERENCES member_events(id),
  channel text NOT NULL CHECK (channel IN ('email')),
  kind text NOT NULL CHECK (kind IN ('payment_received', 'topup_credited', 'wallet_approved', 'reconversion_paid')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  -- Set after the last attempt allowed failed: nobody tries again.
  gave_up_at timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (event_id, channel)
);
CREATE INDEX notification_deliveries_due ON notification_deliveries (next_attempt_at) WHERE sent_at IS NULL AND gave_up_at IS NULL;

-- Keys the server signs with, made here and kept only here: every instance reads the same one, a
-- restored backup keeps links valid, and none is in the code or the environment. 256 bits from two
-- random UUIDs (gen_random_uuid draws 122 strong random bits each; pgcrypto is not assumed).
CREATE TABLE server_keys (
  name text PRIMARY KEY,
  key bytea NOT NULL CHECK (length(key) = 32),
  created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO server_keys (name, key) VALUES ('unsubscribe', sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')));

-- An event the member opted in to at this moment queues its message, in the event's own
-- transaction: it is sent exactly when its cause committed. Silent kinds map to no kind.
CREATE FUNCTION notification_deliveries_of_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  k text := CASE
    WHEN NEW.kind IN ('payment_received', 'topup_credited', 'wallet_approved') THEN NEW.kind
    WHEN NEW.kind = 'reconversion_stage' AND NEW.stage = 'paid' THEN 'reconversion_paid'
  END;
BEGIN
  IF k IS NOT NULL THEN
    INSERT INTO notification_deliveries (event_id, channel, kind)
    SELECT NEW.id, p.channel, k FROM notification_preferences p WHERE p.member_id = NEW.member_id AND p.kind = k;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER member_events_deliveries AFTER INSERT ON member_events FOR EACH ROW EXECUTE FUNCTION notification_deliveries_of_event();
