-- Up Migration

-- The board's right: reads the association's figures and the ledger's health, and
-- changes nothing. Administrators (both validation rights) have it too, without this flag.
ALTER TABLE members ADD COLUMN can_view_figures boolean NOT NULL DEFAULT false;

-- Each run of the ledger's invariant checks (services/ledger-health.ts): the periodic one, run by
-- one instance at a time under an advisory lock, and those somebody asked for. Kept, so the board
-- can tell when a violation first appeared; the newest row is what the health card shows.
CREATE TABLE ledger_checks (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  trigger text NOT NULL CHECK (trigger IN ('schedule', 'demand')),
  requested_by bigint REFERENCES members(id),
  violations jsonb NOT NULL DEFAULT '[]',
  CHECK ((trigger = 'demand') = (requested_by IS NOT NULL))
);
CREATE INDEX ledger_checks_at ON ledger_checks(at DESC);

-- The figures count movements of a kind over a period.
CREATE INDEX movements_kind_created ON movements(kind, created_at);
