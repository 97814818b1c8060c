-- Up Migration

-- News for a linked server, kept until it acknowledged it (services/federation/peer-outbox.ts,
-- docs/federation.md "Told until received"). One table for every kind of news (a change of terms,
-- a payment in doubt the owners ended, and what links and keys will need to tell), so that each
-- kind is a row and a way to tell it, not a table and a loop of its own.

-- One row per piece of news not yet acknowledged: its link, its kind, and what it is about within
-- the link (a payment's id for an ending; empty when the link has one of that kind at a time, as
-- its newest terms). Claimed by one instance at a time (FOR UPDATE SKIP LOCKED) and tried again
-- later on failure, apart from the link's and the payment's rows, so that waiting for the other
-- server (up to 10 s) never holds the locks payments across the link take.
CREATE TABLE federation_outbox (
  id bigserial PRIMARY KEY,
  link_id bigint NOT NULL REFERENCES federation_links (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind ~ '^[a-z][a-z_]{0,39}$'),
  subject text NOT NULL DEFAULT '' CHECK (length(subject) <= 100),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_try_at timestamptz NOT NULL DEFAULT now(),
  -- Why the last try failed: a message id of this server's (the other did not answer, or refused).
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (link_id, kind, subject)
);
CREATE INDEX federation_outbox_due ON federation_outbox (next_try_at);

INSERT INTO federation_outbox (link_id, kind, subject, attempts, next_try_at, last_error, created_at)
SELECT link_id, 'terms', '', attempts, next_try_at, last_error, created_at FROM federation_terms_outbox;

INSERT INTO federation_outbox (link_id, kind, subject, attempts, next_try_at, last_error, created_at)
SELECT fp.link_id, 'ending', fp.id::text, o.attempts, o.next_try_at, o.last_error, o.created_at
  FROM federation_endings_outbox o JOIN federation_payments fp ON fp.id = o.payment_id;

DROP TABLE federation_terms_outbox;
DROP TABLE federation_endings_outbox;
