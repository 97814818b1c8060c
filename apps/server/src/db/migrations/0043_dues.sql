-- Up Migration

-- Dues (services/association/dues*.ts): what members pay the association each period, set by its
-- owners, collected on their date by every instance's due work (services/platform/due-work.ts),
-- one movement per member and period into the association's dues wallet.

-- The association's account that dues are paid into: one per backend, made when first needed.
ALTER TABLE wallets DROP CONSTRAINT wallets_role_check,
  ADD CONSTRAINT wallets_role_check CHECK (role IN ('member', 'issuance', 'safe', 'clearing', 'dues'));
DROP INDEX wallets_one_system_role;
CREATE UNIQUE INDEX wallets_one_system_role ON wallets(backend_id, role) WHERE role IN ('issuance', 'safe', 'dues');
ALTER TABLE movements DROP CONSTRAINT movements_kind_check;
ALTER TABLE movements ADD CONSTRAINT movements_kind_check CHECK (kind IN ('payment', 'topup', 'reconversion', 'retirement', 'opening', 'dues'));

-- The owners' dues: one row (or none: no dues). A fixed amount per period for members and for
-- businesses (null: not charged), or a share of the positive balance (demurrage, in millionths).
CREATE TABLE dues_plan (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  mode text NOT NULL CHECK (mode IN ('fixed', 'demurrage')),
  period text NOT NULL CHECK (period IN ('monthly', 'yearly')),
  -- The first collection date, in the association's time zone; the periods count from it.
  first_date date NOT NULL,
  member_amount bigint CHECK (member_amount > 0),
  business_amount bigint CHECK (business_amount > 0),
  rate_millionths integer CHECK (rate_millionths BETWEEN 1 AND 1000000),
  updated_by bigint REFERENCES members(id),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (mode <> 'fixed' OR member_amount IS NOT NULL OR business_amount IS NOT NULL),
  CHECK ((mode = 'demurrage') = (rate_millionths IS NOT NULL))
);

-- Each member's place in the schedule: the row the collection claims (FOR UPDATE SKIP LOCKED),
-- its next period's number and date moved forward in the transaction that charges the period.
CREATE TABLE dues_members (
  member_id bigint PRIMARY KEY REFERENCES members(id),
  next_index integer NOT NULL CHECK (next_index >= 0),
  next_due date NOT NULL
);
CREATE INDEX dues_members_due ON dues_members (next_due);

-- Each member's dues for a period, once: the unique (member, period) holds even if the code
-- were wrong. Paid (its movement), unpaid (arrears, tried again at `next_try` when the server
-- holds the wallet) or waived by an owner.
CREATE TABLE dues_runs (
  id bigserial PRIMARY KEY,
  public_id text NOT NULL UNIQUE CHECK (public_id ~ '^du_[0-9a-f]{24}$'),
  member_id bigint NOT NULL REFERENCES members(id),
  period date NOT NULL,
  wallet_id text NOT NULL REFERENCES wallets(id),
  amount bigint NOT NULL CHECK (amount > 0),
  -- The movement's memo, in the member's language: "Dues · December 2026".
  memo text NOT NULL CHECK (char_length(memo) BETWEEN 1 AND 50),
  status text NOT NULL CHECK (status IN ('paid', 'arrears', 'waived')),
  movement_id bigint UNIQUE REFERENCES movements(id),
  next_try timestamptz,
  -- The wallet's balance at the last failed try: a change (money arrived) makes it worth another.
  tried_balance bigint,
  waived_by bigint REFERENCES members(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  settled_at timestamptz,
  UNIQUE (member_id, period),
  CHECK ((status = 'paid') = (movement_id IS NOT NULL)),
  CHECK ((status = 'arrears') = (settled_at IS NULL)),
  CHECK ((status = 'waived') = (waived_by IS NOT NULL))
);
CREATE INDEX dues_runs_arrears ON dues_runs (next_try) WHERE status = 'arrears';
CREATE INDEX dues_runs_settled ON dues_runs (settled_at) WHERE status = 'paid';

-- The member hears of unpaid dues: an event of its own, told by e-mail to those who opt in and
-- pushed to subscribed devices (db/functions/notification_deliveries_of_event.sql maps the kind).
ALTER TABLE member_events ADD COLUMN dues_run_id bigint REFERENCES dues_runs(id);
ALTER TABLE member_events DROP CONSTRAINT member_events_kind_check;
ALTER TABLE member_events ADD CONSTRAINT member_events_kind_check CHECK (kind IN ('payment_received', 'payment_sent',
  'topup_credited', 'reconversion_sent', 'reconversion_stage', 'wallet_approved', 'wallet_discarded', 'cashier_invited',
  'money_asked', 'ask_declined', 'ask_cancelled', 'offer_paid', 'dues_unpaid'));
ALTER TABLE member_events DROP CONSTRAINT member_events_check;
ALTER TABLE member_events ADD CONSTRAINT member_events_check
  CHECK ((kind IN ('wallet_approved', 'wallet_discarded', 'cashier_invited', 'money_asked', 'ask_declined', 'ask_cancelled', 'dues_unpaid')) = (movement_id IS NULL));
ALTER TABLE member_events ADD CONSTRAINT member_events_dues CHECK ((kind = 'dues_unpaid') = (dues_run_id IS NOT NULL));
CREATE INDEX member_events_dues ON member_events (dues_run_id) WHERE dues_run_id IS NOT NULL;

ALTER TABLE notification_preferences DROP CONSTRAINT notification_preferences_kind_check;
ALTER TABLE notification_preferences ADD CONSTRAINT notification_preferences_kind_check
  CHECK (kind IN ('payment_received', 'topup_credited', 'wallet_approved', 'reconversion_paid', 'money_asked', 'offer_paid', 'dues_unpaid'));
ALTER TABLE notification_deliveries DROP CONSTRAINT notification_deliveries_kind_check;
ALTER TABLE notification_deliveries ADD CONSTRAINT notification_deliveries_kind_check
  CHECK (kind IN ('payment_received', 'topup_credited', 'wallet_approved', 'reconversion_paid', 'money_asked', 'offer_paid', 'dues_unpaid'));
