-- Up Migration

-- Asking members for money (services/payments/asks.ts): a payment request made of one member,
-- who alone may pay it (a `transfer` naming it, as a till's) or decline it. Several made at once
-- with one memo are a bill split, sharing their `ask_id`. They last days, not minutes, and are
-- never swept: the events that told of them name them.
ALTER TABLE payment_requests
  ADD COLUMN asked_member_id bigint REFERENCES members(id),
  ADD COLUMN ask_id text CHECK (ask_id ~ '^ask_[A-Za-z0-9_-]{22}$'),
  -- When it stopped being open by somebody's doing (paid, declined, cancelled).
  ADD COLUMN closed_at timestamptz,
  DROP CONSTRAINT payment_requests_status_check,
  ADD CONSTRAINT payment_requests_status_check CHECK (status IN ('open', 'paid', 'expired', 'cancelled', 'declined')),
  ADD CONSTRAINT payment_requests_ask CHECK ((asked_member_id IS NULL) = (ask_id IS NULL)),
  ADD CONSTRAINT payment_requests_declined CHECK (status <> 'declined' OR asked_member_id IS NOT NULL),
  ADD CONSTRAINT payment_requests_not_self CHECK (asked_member_id IS DISTINCT FROM created_by);
-- The asks a member has to answer, and the asks a member made (each group's parts).
CREATE INDEX payment_requests_asked ON payment_requests (asked_member_id, created_at) WHERE asked_member_id IS NOT NULL;
CREATE INDEX payment_requests_asker ON payment_requests (created_by, created_at) WHERE ask_id IS NOT NULL;
CREATE INDEX payment_requests_ask_group ON payment_requests (ask_id) WHERE ask_id IS NOT NULL;

-- An event may be about an ask: the asked member hears of it (and may pay it from the
-- notification), the asker of a refusal, the asked member of its withdrawal.
ALTER TABLE member_events ADD COLUMN request_id bigint REFERENCES payment_requests(id);
ALTER TABLE member_events DROP CONSTRAINT member_events_kind_check;
ALTER TABLE member_events ADD CONSTRAINT member_events_kind_check CHECK (kind IN ('payment_received', 'payment_sent',
  'topup_credited', 'reconversion_sent', 'reconversion_stage', 'wallet_approved', 'wallet_discarded', 'cashier_invited',
  'money_asked', 'ask_declined', 'ask_cancelled'));
ALTER TABLE member_events DROP CONSTRAINT member_events_check;
ALTER TABLE member_events ADD CONSTRAINT member_events_check
  CHECK ((kind IN ('wallet_approved', 'wallet_discarded', 'cashier_invited', 'money_asked', 'ask_declined', 'ask_cancelled')) = (movement_id IS NULL));
ALTER TABLE member_events ADD CONSTRAINT member_events_ask
  CHECK ((kind IN ('money_asked', 'ask_declined', 'ask_cancelled')) = (request_id IS NOT NULL));

CREATE FUNCTION member_events_of_ask() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO member_events (member_id, kind, wallet_id, request_id) VALUES (NEW.asked_member_id, 'money_asked', NEW.wallet_id, NEW.id);
    RETURN NULL;
  END IF;
  IF NEW.status = 'declined' THEN
    INSERT INTO member_events (member_id, kind, wallet_id, request_id) VALUES (NEW.created_by, 'ask_declined', NEW.wallet_id, NEW.id);
  ELSIF NEW.status = 'cancelled' THEN
    INSERT INTO member_events (member_id, kind, wallet_id, request_id) VALUES (NEW.asked_member_id, 'ask_cancelled', NEW.wallet_id, NEW.id);
  END IF;
  -- Answered (or withdrawn), the ask is no longer news waiting in the asked member's bell.
  UPDATE member_events SET read_at = now() WHERE request_id = NEW.id AND kind = 'money_asked' AND read_at IS NULL;
  RETURN NULL;
END $$;
CREATE TRIGGER payment_requests_ask_made AFTER INSERT ON payment_requests
  FOR EACH ROW WHEN (NEW.asked_member_id IS NOT NULL) EXECUTE FUNCTION member_events_of_ask();
CREATE TRIGGER payment_requests_ask_closed AFTER UPDATE OF status ON payment_requests
  FOR EACH ROW WHEN (NEW.asked_member_id IS NOT NULL AND OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION member_events_of_ask();
CREATE INDEX member_events_request ON member_events (request_id) WHERE request_id IS NOT NULL;

-- Being asked for money is told by e-mail to those who opt in, and pushed to subscribed devices,
-- like the other notifications (db/functions/notification_deliveries_of_event.sql maps the kind).
ALTER TABLE notification_preferences DROP CONSTRAINT notification_preferences_kind_check;
ALTER TABLE notification_preferences ADD CONSTRAINT notification_preferences_kind_check
  CHECK (kind IN ('payment_received', 'topup_credited', 'wallet_approved', 'reconversion_paid', 'money_asked'));
ALTER TABLE notification_deliveries DROP CONSTRAINT notification_deliveries_kind_check;
ALTER TABLE notification_deliveries ADD CONSTRAINT notification_deliveries_kind_check
  CHECK (kind IN ('payment_received', 'topup_credited', 'wallet_approved', 'reconversion_paid', 'money_asked'));
