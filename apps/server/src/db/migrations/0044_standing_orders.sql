-- Up Migration

-- Standing orders (services/payments/standing-orders*.ts): a member's payment made on its days,
-- once, every week or every month, until an end date or with no end. Every instance's DueWork
-- claims one due order at a time (FOR UPDATE SKIP LOCKED), pays it through the ledger (or, for a
-- wallet whose key is on the member's device, reminds its member) and moves it on, in one
-- transaction. Dates are days of the association's calendar.
CREATE TABLE standing_orders (
  id bigserial PRIMARY KEY,
  public_id text NOT NULL UNIQUE CHECK (public_id ~ '^so_[A-Za-z0-9_-]{22}$'),
  member_id bigint NOT NULL REFERENCES members(id),
  payer_wallet_id text NOT NULL REFERENCES wallets(id),
  payee_wallet_id text NOT NULL REFERENCES wallets(id),
  amount bigint NOT NULL CHECK (amount > 0),
  memo text NOT NULL DEFAULT '' CHECK (char_length(memo) <= 50),
  frequency text NOT NULL CHECK (frequency IN ('once', 'weekly', 'monthly')),
  start_date date NOT NULL,
  end_date date CHECK (end_date >= start_date),
  retry_days int NOT NULL CHECK (retry_days BETWEEN 0 AND 5),
  -- The payer's key is on the member's device: the server reminds, the member signs and pays.
  signed boolean NOT NULL,
  state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'paused', 'ended', 'cancelled')),
  -- The next occurrence: its number (0 is the first, the dates are counted from start_date) and
  -- its day; the day it is tried (due_date) is later while a refused payment is tried again.
  occurrence int NOT NULL DEFAULT 0 CHECK (occurrence >= 0),
  next_date date,
  due_date date,
  -- The tries of the next occurrence so far that were refused.
  attempt int NOT NULL DEFAULT 0 CHECK (attempt BETWEEN 0 AND 5),
  -- Whoever set up a custodial wallet's order confirmed it (password or PIN), and when.
  confirmed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (payer_wallet_id <> payee_wallet_id),
  CHECK ((state IN ('active', 'paused')) = (next_date IS NOT NULL)),
  CHECK ((next_date IS NULL) = (due_date IS NULL)),
  CHECK (signed OR confirmed_at IS NOT NULL)
);
-- The due work's claim: the active orders whose day has come.
CREATE INDEX standing_orders_due ON standing_orders (due_date, id) WHERE state = 'active';
CREATE INDEX standing_orders_member ON standing_orders (member_id, id);

-- Each try at an occurrence: paid (with its movement), refused (with its reason, a msgid), or
-- reminded (a signed wallet's: the member pays from the app, with the occurrence's key). An
-- occurrence is paid or reminded once whatever the code does: the unique index says so.
CREATE TABLE standing_order_runs (
  id bigserial PRIMARY KEY,
  order_id bigint NOT NULL REFERENCES standing_orders(id),
  occurrence_date date NOT NULL,
  attempt int NOT NULL CHECK (attempt >= 0),
  outcome text NOT NULL CHECK (outcome IN ('paid', 'refused', 'reminded')),
  movement_id bigint REFERENCES movements(id),
  reason text,
  -- A refused try after which the occurrence is given up (no retry left), or is tried again on this day.
  retry_date date,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (order_id, occurrence_date, attempt),
  CHECK ((outcome = 'paid') = (movement_id IS NOT NULL)),
  CHECK ((outcome = 'refused') = (reason IS NOT NULL)),
  CHECK (retry_date IS NULL OR outcome = 'refused')
);
CREATE UNIQUE INDEX standing_order_runs_once ON standing_order_runs (order_id, occurrence_date) WHERE outcome IN ('paid', 'reminded');
CREATE INDEX standing_order_runs_order ON standing_order_runs (order_id, id DESC);

-- The member hears of a refused payment and of a reminder to pay: events of their own, in the
-- run's transaction, told by e-mail to those who opt in and pushed to subscribed devices.
ALTER TABLE member_events ADD COLUMN standing_order_run_id bigint REFERENCES standing_order_runs(id);
ALTER TABLE member_events DROP CONSTRAINT member_events_kind_check;
ALTER TABLE member_events ADD CONSTRAINT member_events_kind_check CHECK (kind IN ('payment_received', 'payment_sent',
  'topup_credited', 'reconversion_sent', 'reconversion_stage', 'wallet_approved', 'wallet_discarded', 'cashier_invited',
  'money_asked', 'ask_declined', 'ask_cancelled', 'offer_paid', 'dues_unpaid', 'standing_order_refused', 'standing_order_due'));
ALTER TABLE member_events DROP CONSTRAINT member_events_check;
ALTER TABLE member_events ADD CONSTRAINT member_events_check
  CHECK ((kind IN ('wallet_approved', 'wallet_discarded', 'cashier_invited', 'money_asked', 'ask_declined', 'ask_cancelled',
    'dues_unpaid', 'standing_order_refused', 'standing_order_due')) = (movement_id IS NULL));
ALTER TABLE member_events ADD CONSTRAINT member_events_standing_order
  CHECK ((kind IN ('standing_order_refused', 'standing_order_due')) = (standing_order_run_id IS NOT NULL));
CREATE INDEX member_events_standing_order ON member_events (standing_order_run_id) WHERE standing_order_run_id IS NOT NULL;

ALTER TABLE notification_preferences DROP CONSTRAINT notification_preferences_kind_check;
ALTER TABLE notification_preferences ADD CONSTRAINT notification_preferences_kind_check
  CHECK (kind IN ('payment_received', 'topup_credited', 'wallet_approved', 'reconversion_paid', 'money_asked', 'offer_paid', 'dues_unpaid', 'standing_order'));
ALTER TABLE notification_deliveries DROP CONSTRAINT notification_deliveries_kind_check;
ALTER TABLE notification_deliveries ADD CONSTRAINT notification_deliveries_kind_check
  CHECK (kind IN ('payment_received', 'topup_credited', 'wallet_approved', 'reconversion_paid', 'money_asked', 'offer_paid', 'dues_unpaid', 'standing_order'));
