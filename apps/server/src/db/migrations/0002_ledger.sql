-- Up Migration

-- Directory: phone and a normalised search text (lower-case, accents stripped by the server),
-- so search is case- and accent-insensitive on any PostgreSQL, without extensions.
ALTER TABLE members ADD COLUMN phone text;
ALTER TABLE members ADD COLUMN search_text text NOT NULL DEFAULT '';

-- A backend under maintenance answers nothing: its accounts show as temporarily unavailable.
ALTER TABLE backends ADD COLUMN status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'maintenance'));
ALTER TABLE backends ADD COLUMN min_credit_amount bigint CHECK (min_credit_amount > 0);
ALTER TABLE backends ADD COLUMN max_credit_amount bigint CHECK (max_credit_amount > 0);
-- Mutual-credit limits given to new ledger wallets (cents): CM may go down to the floor and up to the ceiling.
ALTER TABLE backends ADD COLUMN cm_floor bigint NOT NULL DEFAULT 0 CHECK (cm_floor <= 0);
ALTER TABLE backends ADD COLUMN cm_ceiling bigint CHECK (cm_ceiling >= 0);

-- A wallet (the spec's user account): a member's, or one of a backend's system wallets.
-- Ledger wallets are secp256k1 key pairs: the server keeps the address and the encrypted
-- keystore (as Lokavaluto's server does), never the key.
CREATE TABLE wallets (
  id text PRIMARY KEY,
  backend_id text NOT NULL REFERENCES backends(id),
  member_id bigint REFERENCES members(id),
  role text NOT NULL DEFAULT 'member' CHECK (role IN ('member', 'issuance', 'safe')),
  status text NOT NULL CHECK (status IN ('pending', 'active', 'locked', 'discarded')),
  address text CHECK (address ~ '^[0-9a-f]{40}$'),
  keystore jsonb,
  topup_allowed boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((role = 'member') = (member_id IS NOT NULL))
);
CREATE UNIQUE INDEX wallets_one_per_member ON wallets(backend_id, member_id) WHERE status <> 'discarded';
CREATE UNIQUE INDEX wallets_one_system_role ON wallets(backend_id, role) WHERE role <> 'member';
CREATE UNIQUE INDEX wallets_address ON wallets(address) WHERE address IS NOT NULL;
CREATE INDEX wallets_member ON wallets(member_id);

-- Money accounts. The balance is a cache of the postings (a check proves it); the CHECKs are
-- the last guard of the floor and ceiling, behind the service's own checks under row locks.
CREATE TABLE accounts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  wallet_id text NOT NULL REFERENCES wallets(id),
  currency_id text NOT NULL REFERENCES currencies(id),
  kind text NOT NULL CHECK (kind IN ('main', 'nant', 'cm')),
  floor bigint,
  ceiling bigint,
  balance bigint NOT NULL DEFAULT 0,
  CHECK (floor IS NULL OR balance >= floor),
  CHECK (ceiling IS NULL OR balance <= ceiling),
  CHECK (floor IS NULL OR ceiling IS NULL OR floor <= ceiling),
  UNIQUE (wallet_id, kind)
);

-- One movement of money: a payment, a top-up, a reconversion... Append-only.
CREATE TABLE movements (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  public_id text NOT NULL UNIQUE,
  backend_id text NOT NULL REFERENCES backends(id),
  currency_id text NOT NULL REFERENCES currencies(id),
  kind text NOT NULL CHECK (kind IN ('payment', 'topup', 'reconversion', 'retirement')),
  payer_wallet_id text NOT NULL REFERENCES wallets(id),
  payee_wallet_id text NOT NULL REFERENCES wallets(id),
  amount bigint NOT NULL CHECK (amount > 0),
  sender_memo text NOT NULL DEFAULT '' CHECK (char_length(sender_memo) <= 50),
  recipient_memo text NOT NULL DEFAULT '' CHECK (char_length(recipient_memo) <= 50),
  initiated_by bigint REFERENCES members(id),
  idempotency_key text NOT NULL CHECK (char_length(idempotency_key) BETWEEN 8 AND 100),
  request_hash text NOT NULL,
  signed_message text,
  signature text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (payer_wallet_id, idempotency_key),
  CHECK (payer_wallet_id <> payee_wallet_id)
);
CREATE INDEX movements_payer ON movements(payer_wallet_id, created_at DESC, id DESC);
CREATE INDEX movements_payee ON movements(payee_wallet_id, created_at DESC, id DESC);

CREATE TABLE postings (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  movement_id bigint NOT NULL REFERENCES movements(id),
  account_id bigint NOT NULL REFERENCES accounts(id),
  amount bigint NOT NULL CHECK (amount <> 0),
  balance_after bigint NOT NULL
);
CREATE INDEX postings_movement ON postings(movement_id);
CREATE INDEX postings_account ON postings(account_id, id);

-- Double entry, enforced by the database at commit: a movement's postings sum to zero.
CREATE FUNCTION ledger_check_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT coalesce(sum(amount), 0) FROM postings WHERE movement_id = NEW.movement_id) <> 0 THEN
    RAISE EXCEPTION 'movement % is not balanced', NEW.movement_id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER postings_balanced AFTER INSERT ON postings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_check_balanced();

-- History is append-only: a correction is a new movement.
CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER movements_append_only BEFORE UPDATE OR DELETE ON movements FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER postings_append_only BEFORE UPDATE OR DELETE ON postings FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

CREATE TABLE favorites (
  member_id bigint NOT NULL REFERENCES members(id),
  favorite_id bigint NOT NULL REFERENCES members(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (member_id, favorite_id),
  CHECK (member_id <> favorite_id)
);

UPDATE members SET search_text = lower(first_name || ' ' || last_name || ' ' || email);
