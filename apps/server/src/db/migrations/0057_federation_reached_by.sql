-- Up Migration

-- Who reaches this side through a linked server: the associations whose members' payments that
-- server said it forwards here (services/federation/forwarding.ts), its latest list, as for
-- federation_routes. A visitor of a payment link is offered their apps with the directly linked ones.
CREATE TABLE federation_reached_by (
  link_id bigint NOT NULL REFERENCES federation_links (id) ON DELETE CASCADE,
  url text NOT NULL,
  name text NOT NULL,
  told_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (link_id, url)
);
