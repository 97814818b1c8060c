-- Up Migration

-- Members of the association. E-mails are stored normalised (trimmed, lower-cased).
CREATE TABLE members (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email text NOT NULL UNIQUE CHECK (email = lower(btrim(email)) AND email <> ''),
  first_name text NOT NULL CHECK (btrim(first_name) <> ''),
  last_name text NOT NULL CHECK (btrim(last_name) <> ''),
  password_hash text NOT NULL,
  can_validate_accounts boolean NOT NULL DEFAULT false,
  can_validate_credits boolean NOT NULL DEFAULT false,
  password_changed_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Sessions: only a SHA-256 of the random token is kept, so a database leak yields no usable token.
CREATE TABLE sessions (
  token_hash bytea PRIMARY KEY,
  member_id bigint NOT NULL REFERENCES members(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_member_idx ON sessions(member_id) WHERE revoked_at IS NULL;

-- Single-use, time-limited password reset links (hash of the token only).
CREATE TABLE password_resets (
  token_hash bytea PRIMARY KEY,
  member_id bigint NOT NULL REFERENCES members(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX password_resets_member_idx ON password_resets(member_id);

-- Fixed-window counters shared by every server instance (login, signup, reset, later PIN).
CREATE TABLE rate_limits (
  bucket text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL
);

CREATE TABLE currencies (
  id text PRIMARY KEY,
  name text NOT NULL,
  symbol text NOT NULL
);

-- A backend hosts the wallets of one currency; id is "kind:name" (spec: the part before the colon).
CREATE TABLE backends (
  id text PRIMARY KEY CHECK (id = kind || ':' || name),
  kind text NOT NULL CHECK (kind IN ('ledger', 'custodial')),
  name text NOT NULL,
  currency_id text NOT NULL REFERENCES currencies(id),
  created_at timestamptz NOT NULL DEFAULT now()
);
