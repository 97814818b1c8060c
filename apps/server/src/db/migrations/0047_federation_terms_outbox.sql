-- Up Migration

-- Terms told to the other server until it received them (services/federation/terms-outbox.ts,
-- docs/federation.md "Terms"). A side's terms change while the other server is down: saved here,
-- and sent again until the other side answers, rather than lost.

-- Each side numbers its own terms (1 when first told, in the acceptance or the confirmation; one
-- more at each change), and remembers the last number the other side acknowledged and the last
-- number of the other side's it recorded: an older message arriving late never overwrites newer
-- terms, and the same one twice changes nothing.
ALTER TABLE federation_links
  ADD COLUMN terms_version bigint NOT NULL DEFAULT 0 CHECK (terms_version >= 0),
  ADD COLUMN terms_told_version bigint NOT NULL DEFAULT 0 CHECK (terms_told_version >= 0),
  ADD COLUMN peer_terms_version bigint NOT NULL DEFAULT 0 CHECK (peer_terms_version >= 0),
  ADD CONSTRAINT federation_links_terms_told CHECK (terms_told_version <= terms_version);

-- Terms set before numbering: taken as told (a change the other side missed was said to the owner then).
UPDATE federation_links SET terms_version = 1, terms_told_version = 1 WHERE our_value_e4 IS NOT NULL;
UPDATE federation_links SET peer_terms_version = 1 WHERE peer_our_value_e4 IS NOT NULL;

-- A link whose newest terms the other side has not acknowledged yet: one row per link, claimed by
-- one instance at a time (FOR UPDATE SKIP LOCKED) and tried again later on failure. Apart from the
-- link's row, so that sending (up to 10 s of waiting for the other server) never holds the lock
-- payments across the link take.
CREATE TABLE federation_terms_outbox (
  link_id bigint PRIMARY KEY REFERENCES federation_links (id) ON DELETE CASCADE,
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_try_at timestamptz NOT NULL DEFAULT now(),
  -- Why the last try failed: a message id of this server's (the other did not answer, or refused).
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX federation_terms_outbox_due ON federation_terms_outbox (next_try_at);
