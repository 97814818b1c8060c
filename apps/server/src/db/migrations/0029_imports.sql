-- Up Migration

-- Moving in from another system (services/import/): members, their closing balances and their
-- history, written in one transaction, and the invitations sent to them afterwards.

-- One import: who ran it, from which files, and what it wrote. The row is written in the import's
-- own transaction, so it exists exactly when the import committed.
CREATE TABLE imports (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  backend_id text NOT NULL REFERENCES backends(id),
  -- The owner who ran it from the console; null from the command line.
  by_member bigint REFERENCES members(id),
  members_file text NOT NULL,
  history_file text,
  members_count integer NOT NULL DEFAULT 0,
  movements_count integer NOT NULL DEFAULT 0,
  -- The sum of the imported members' closing balances, in cents.
  total bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- A member's id in the old system: what the history's lines name, and what makes running the same
-- members file again import nobody twice.
CREATE TABLE member_external_ids (
  external_id text PRIMARY KEY CHECK (external_id <> ''),
  member_id bigint NOT NULL UNIQUE REFERENCES members(id),
  import_id bigint NOT NULL REFERENCES imports(id)
);

-- An import run from the command line is the server's operator's doing, who need not be a member.
ALTER TABLE audit_log ALTER COLUMN member_id DROP NOT NULL;

-- A shop (Odoo's "is a company"): told to Lokavaluto's client as such.
ALTER TABLE members ADD COLUMN is_business boolean NOT NULL DEFAULT false;

-- An imported movement keeps the date it happened on in created_at (what histories, statements and
-- figures read), and names its import, whose row holds when it was written here.
ALTER TABLE movements ADD COLUMN import_id bigint REFERENCES imports(id);
-- An opening balance: a member's closing balance in the old system, issued to them when they move
-- in without a history. Not a top-up of the day: the figures' flows leave it out.
ALTER TABLE movements DROP CONSTRAINT movements_kind_check;
ALTER TABLE movements ADD CONSTRAINT movements_kind_check CHECK (kind IN ('payment', 'topup', 'reconversion', 'retirement', 'opening'));

-- Years of history are not news: an imported movement tells nobody (no event, no notification).
DROP TRIGGER movements_member_events ON movements;
CREATE TRIGGER movements_member_events AFTER INSERT ON movements FOR EACH ROW WHEN (NEW.import_id IS NULL)
  EXECUTE FUNCTION member_events_of_movement();

-- The invitations of imported members to choose their password: an outbox of its own, sent by the
-- notification worker of any instance as it sends the other e-mails (claimed, leased, retried with
-- a backoff, given up after the last attempt). `next_attempt_at` is first the throttle's turn:
-- invitations sent together are spread over the minutes that the per-minute limit asks.
CREATE TABLE member_invitations (
  member_id bigint PRIMARY KEY REFERENCES members(id),
  invited_by bigint REFERENCES members(id),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claimed_at timestamptz,
  sent_at timestamptz,
  gave_up_at timestamptz,
  last_error text,
  -- When the member chose their password from a link (theirs, or any reset link).
  accepted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX member_invitations_due ON member_invitations ((attempts > 0), next_attempt_at) WHERE sent_at IS NULL AND gave_up_at IS NULL;

-- The files an owner uploads in the console, in parts, kept until the import (any instance may
-- serve the preview and the import) and for a day after their upload began.
CREATE TABLE import_uploads (
  id text PRIMARY KEY CHECK (id ~ '^up_[0-9a-f]{32}$'),
  by_member bigint NOT NULL REFERENCES members(id),
  kind text NOT NULL CHECK (kind IN ('members', 'history')),
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  parts integer NOT NULL DEFAULT 0,
  bytes bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE import_upload_parts (
  upload_id text NOT NULL REFERENCES import_uploads(id) ON DELETE CASCADE,
  index integer NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (upload_id, index)
);
