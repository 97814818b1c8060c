-- Up Migration

-- Who did what as an administrator. Written in the same transaction as the action, so an
-- action without its audit row cannot exist; append-only like the ledger.
CREATE TABLE audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  member_id bigint NOT NULL REFERENCES members(id),
  action text NOT NULL,
  subject text NOT NULL,
  details jsonb NOT NULL DEFAULT '{}',
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_subject ON audit_log(subject, at);
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

-- Top-up (credit) orders. Not ledger history: their state moves forward by guarded UPDATEs;
-- the money itself only moves as the 'topup' movement posted when the order is validated.
CREATE TABLE topup_orders (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- Random and unguessable: it is the capability of the order page.
  public_id text NOT NULL UNIQUE,
  wallet_id text NOT NULL REFERENCES wallets(id),
  requester_id bigint NOT NULL REFERENCES members(id),
  -- Whether the requester owned the wallet when asking: at most one such unpaid order per wallet.
  requester_is_owner boolean NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  state text NOT NULL DEFAULT 'unpaid' CHECK (state IN ('unpaid', 'paid', 'received', 'canceled')),
  provider text NOT NULL,
  -- What the member writes on a bank transfer.
  reference text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  paid_at timestamptz,
  validated_at timestamptz,
  validated_by bigint REFERENCES members(id),
  movement_id bigint UNIQUE REFERENCES movements(id),
  CHECK ((state = 'received') = (movement_id IS NOT NULL)),
  CHECK (state IN ('unpaid', 'canceled') OR paid_at IS NOT NULL)
);
CREATE UNIQUE INDEX topup_orders_one_unpaid_own ON topup_orders(wallet_id) WHERE state = 'unpaid' AND requester_is_owner;
CREATE INDEX topup_orders_open ON topup_orders(wallet_id) WHERE state IN ('unpaid', 'paid');
CREATE INDEX topup_orders_paid ON topup_orders(paid_at) WHERE state = 'paid';

-- Where each reconversion stands at the association; 'paid' (shown as processed) retires the units.
CREATE TABLE reconversions (
  movement_id bigint PRIMARY KEY REFERENCES movements(id),
  status text NOT NULL DEFAULT 'sent' CHECK (status IN ('sent', 'received', 'invoiced', 'paid')),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by bigint REFERENCES members(id),
  retirement_movement_id bigint UNIQUE REFERENCES movements(id),
  CHECK ((status = 'paid') = (retirement_movement_id IS NOT NULL))
);
CREATE INDEX reconversions_open ON reconversions(status) WHERE status <> 'paid';
INSERT INTO reconversions (movement_id, updated_at) SELECT id, created_at FROM movements WHERE kind = 'reconversion';
