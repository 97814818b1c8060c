-- Up Migration

-- At most one active link per address of another server (services/federation/links.ts). A server
-- at an address answers with one key: when it has a new one (reinstalled, its database lost) and
-- the owners link again, the new link replaces the old, whose key answers there no more. Two
-- active links to one address made payments pick either, and fail with the old key's.

-- replaced: a newer link with a server at the same address became active. Its balance and its
-- payments stay in the books; nothing is paid across it any more.
ALTER TABLE federation_links
  DROP CONSTRAINT federation_links_state_check,
  ADD CONSTRAINT federation_links_state_check CHECK (state IN ('invited', 'accepted', 'active', 'replaced'));

-- Links made active before this rule: the newest one to each address stays, as a new link would.
UPDATE federation_links l SET state = 'replaced', updated_at = now()
 WHERE l.state = 'active'
   AND EXISTS (SELECT 1 FROM federation_links n WHERE n.state = 'active' AND n.peer_url = l.peer_url AND n.id > l.id);

CREATE UNIQUE INDEX federation_links_one_active_per_address ON federation_links (peer_url) WHERE state = 'active';
