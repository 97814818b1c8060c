-- Up Migration

-- The marketplace (services/shops/offers.ts): members' offers and needs, listed until they expire
-- (by the database's clock: no timer), are withdrawn by their owner or hidden by an account
-- administrator. An offer is paid by an ordinary payment naming it (services/payments/payments.ts).
CREATE TABLE market_offers (
  id bigserial PRIMARY KEY,
  public_id text NOT NULL UNIQUE CHECK (public_id ~ '^of_[A-Za-z0-9_-]{22}$'),
  member_id bigint NOT NULL REFERENCES members(id),
  kind text NOT NULL CHECK (kind IN ('offer', 'need')),
  category text NOT NULL CHECK (category IN ('food', 'goods', 'services', 'housing', 'transport', 'leisure', 'other')),
  title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 80),
  description text NOT NULL DEFAULT '' CHECK (char_length(description) <= 2000),
  -- The words searched: title and description folded (accents and case), written by the service.
  search_text text NOT NULL,
  -- In cents of the wallet's currency; null: to agree.
  price bigint CHECK (price > 0),
  -- The owner's account payments for it go to; an offer has one, a need may not.
  wallet_id text REFERENCES wallets(id),
  expires_at timestamptz NOT NULL,
  withdrawn_at timestamptz,
  hidden_at timestamptz,
  hidden_by bigint REFERENCES members(id),
  hidden_reason text CHECK (char_length(hidden_reason) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (kind <> 'offer' OR wallet_id IS NOT NULL),
  CHECK (price IS NULL OR wallet_id IS NOT NULL),
  CHECK ((hidden_at IS NULL) = (hidden_reason IS NULL))
);
-- The list: live ones, newest first (the live test is the query's, against now()).
CREATE INDEX market_offers_listed ON market_offers (created_at DESC) WHERE withdrawn_at IS NULL AND hidden_at IS NULL;
CREATE INDEX market_offers_member ON market_offers (member_id, created_at DESC);

CREATE TABLE market_offer_photos (
  id bigserial PRIMARY KEY,
  offer_id bigint NOT NULL REFERENCES market_offers(id),
  type text NOT NULL CHECK (type IN ('image/jpeg', 'image/webp', 'image/png')),
  bytes bytea NOT NULL CHECK (octet_length(bytes) BETWEEN 1 AND 204800),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX market_offer_photos_offer ON market_offer_photos (offer_id, id);

-- A member reports an offer once, with a reason; the account administrators read them.
CREATE TABLE market_reports (
  offer_id bigint NOT NULL REFERENCES market_offers(id),
  member_id bigint NOT NULL REFERENCES members(id),
  reason text NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (offer_id, member_id)
);

-- The payments made for an offer: written in the payment's own transaction, with the event
-- telling its owner. A movement pays at most one offer.
CREATE TABLE market_offer_payments (
  movement_id bigint PRIMARY KEY REFERENCES movements(id),
  offer_id bigint NOT NULL REFERENCES market_offers(id),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX market_offer_payments_offer ON market_offer_payments (offer_id);

-- The owner hears of it: an event of its own (its payment_received comes with the movement),
-- told by e-mail to those who opt in and pushed to subscribed devices
-- (db/functions/notification_deliveries_of_event.sql maps the kind).
ALTER TABLE member_events ADD COLUMN offer_id bigint REFERENCES market_offers(id);
ALTER TABLE member_events DROP CONSTRAINT member_events_kind_check;
ALTER TABLE member_events ADD CONSTRAINT member_events_kind_check CHECK (kind IN ('payment_received', 'payment_sent',
  'topup_credited', 'reconversion_sent', 'reconversion_stage', 'wallet_approved', 'wallet_discarded', 'cashier_invited',
  'money_asked', 'ask_declined', 'ask_cancelled', 'offer_paid'));
ALTER TABLE member_events ADD CONSTRAINT member_events_offer CHECK ((kind = 'offer_paid') = (offer_id IS NOT NULL));
CREATE INDEX member_events_offer ON member_events (offer_id) WHERE offer_id IS NOT NULL;

ALTER TABLE notification_preferences DROP CONSTRAINT notification_preferences_kind_check;
ALTER TABLE notification_preferences ADD CONSTRAINT notification_preferences_kind_check
  CHECK (kind IN ('payment_received', 'topup_credited', 'wallet_approved', 'reconversion_paid', 'money_asked', 'offer_paid'));
ALTER TABLE notification_deliveries DROP CONSTRAINT notification_deliveries_kind_check;
ALTER TABLE notification_deliveries ADD CONSTRAINT notification_deliveries_kind_check
  CHECK (kind IN ('payment_received', 'topup_credited', 'wallet_approved', 'reconversion_paid', 'money_asked', 'offer_paid'));
