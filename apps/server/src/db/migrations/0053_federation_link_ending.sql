-- Up Migration

-- Links that end, link again, and move (services/federation/link-ending.ts and address-change.ts,
-- docs/federation.md "Ending a link", "Linking again", "A server's move").

-- ended: an owner of either side ended the link. Nothing is quoted or paid across it any more,
-- either way; its payments in doubt are still asked about and may be ended, and its balance (what
-- this side holds of the other's currency, its clearing wallets) stays for the boards to settle.
-- An ended link is never switched on again: linking again makes a new link.
ALTER TABLE federation_links
  DROP CONSTRAINT federation_links_state_check,
  ADD CONSTRAINT federation_links_state_check CHECK (state IN ('invited', 'accepted', 'active', 'replaced', 'ended')),
  -- When it ended, by which side, and (ended here) when the other side acknowledged it.
  ADD COLUMN ended_at timestamptz,
  ADD COLUMN ended_by text CHECK (ended_by IN ('us', 'them')),
  ADD COLUMN ended_told_at timestamptz,
  ADD CONSTRAINT federation_links_ended CHECK ((state = 'ended') = (ended_at IS NOT NULL) AND (ended_at IS NULL) = (ended_by IS NULL)),
  ADD CONSTRAINT federation_links_ended_told CHECK (ended_told_at IS NULL OR ended_by = 'us'),
  -- The other server moved (its address changed, told signed by its key and checked at the new
  -- address): where it was before, and when it said so.
  ADD COLUMN peer_previous_url text,
  ADD COLUMN peer_moved_at timestamptz,
  ADD CONSTRAINT federation_links_moved CHECK ((peer_previous_url IS NULL) = (peer_moved_at IS NULL));

-- The same two servers may link again once their link ended (or was replaced): a key is unique
-- among the live links only, so an ended link keeps its key (its server may still ask about its
-- payments in doubt) beside the new link's.
ALTER TABLE federation_links DROP CONSTRAINT federation_links_peer_key_key;
CREATE UNIQUE INDEX federation_links_one_live_per_key ON federation_links (peer_key) WHERE state IN ('invited', 'accepted', 'active');
CREATE INDEX federation_links_key ON federation_links (peer_key);

-- The address this server last told its linked servers it answers at (its PUBLIC_URL): when it
-- starts at another, it tells every active link its new one, signed by its key, until each
-- acknowledged it. One row, made at the first start that looks: nothing to tell then.
CREATE TABLE federation_address (
  only_one boolean PRIMARY KEY DEFAULT true CHECK (only_one),
  url text NOT NULL,
  previous_url text,
  changed_at timestamptz NOT NULL DEFAULT now()
);
