-- Up Migration

-- Payment requests as server objects: a payee asks for an exact amount into one wallet;
-- the first payment of it marks it paid, in the movement's own transaction, and every later one is
-- refused. A row still 'open' past expires_at is expired wherever it is read or paid
-- (services/payment-requests.ts): no timer has to run for a request to stop being payable.
CREATE TABLE payment_requests (
  id bigserial PRIMARY KEY,
  -- What the QR code and the link carry: 128 random bits, so holding one is the only way to read it.
  public_id text NOT NULL UNIQUE CHECK (public_id ~ '^pr_[A-Za-z0-9_-]{22}$'),
  wallet_id text NOT NULL REFERENCES wallets(id),
  amount bigint NOT NULL CHECK (amount > 0),
  sender_memo text NOT NULL DEFAULT '' CHECK (char_length(sender_memo) <= 50),
  recipient_memo text NOT NULL DEFAULT '' CHECK (char_length(recipient_memo) <= 50),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'paid', 'expired', 'cancelled')),
  expires_at timestamptz NOT NULL,
  created_by bigint NOT NULL REFERENCES members(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  -- The one movement that paid it: UNIQUE, so no movement pays two requests.
  movement_id bigint UNIQUE REFERENCES movements(id),
  payer_wallet_id text REFERENCES wallets(id),
  paid_at timestamptz,
  CONSTRAINT payment_requests_expiry CHECK (expires_at > created_at),
  -- Paid exactly when it has its movement, its payer and the time; no other status has them.
  CONSTRAINT payment_requests_paid CHECK (
    (status = 'paid') = (movement_id IS NOT NULL)
    AND (movement_id IS NULL) = (payer_wallet_id IS NULL)
    AND (movement_id IS NULL) = (paid_at IS NULL)
  )
);
-- The till's lists of a wallet's requests.
CREATE INDEX payment_requests_wallet ON payment_requests (wallet_id, created_at);
