-- Up Migration

-- Payments through an association both trust, first step: what each server forwards, and what its
-- linked servers told it they reach (services/federation/forwarding.ts, docs/federation.md
-- "Through an association both trust").

-- forward: this side forwards the payments arriving over this link to its other links, and tells
-- the link's peer what it reaches (its owners' choice, off until they turn it on).
-- peer_routes_version: the last number of the peer's lists recorded here (an older list arriving
-- late changes nothing).
ALTER TABLE federation_links
  ADD COLUMN forward boolean NOT NULL DEFAULT false,
  ADD COLUMN peer_routes_version bigint NOT NULL DEFAULT 0 CHECK (peer_routes_version >= 0);

-- The number of this side's newest list for each link's peer (one more at each change of what it
-- reaches), and the last number the peer acknowledged. Apart from the links' rows, which payments
-- across lock: a change numbers a new list for every forwarding link in one statement, in the
-- links' order.
CREATE TABLE federation_routes_told (
  link_id bigint PRIMARY KEY REFERENCES federation_links (id) ON DELETE CASCADE,
  version bigint NOT NULL DEFAULT 1 CHECK (version >= 1),
  told_version bigint NOT NULL DEFAULT 0 CHECK (told_version >= 0),
  CONSTRAINT federation_routes_told_order CHECK (told_version <= version)
);

-- What a linked server said it reaches and forwards this side's payments to: its latest list.
-- Values in ten-thousandths as the terms', the headroom in cents of the reached currency.
CREATE TABLE federation_routes (
  link_id bigint NOT NULL REFERENCES federation_links (id) ON DELETE CASCADE,
  url text NOT NULL,
  name text NOT NULL,
  currency_name text NOT NULL,
  currency_symbol text NOT NULL,
  public_key bytea NOT NULL CHECK (length(public_key) = 32),
  via_value_e4 bigint NOT NULL CHECK (via_value_e4 > 0),
  to_value_e4 bigint NOT NULL CHECK (to_value_e4 > 0),
  headroom_cents bigint NOT NULL CHECK (headroom_cents >= 0),
  told_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (link_id, url)
);
