-- Up Migration

-- A member's own photo (services/members/photos.ts): a small square image the app made (256×256,
-- a few tens of KB), shown beside their name to other members. In the database, not on a disk,
-- so that backups, restores and every server instance have it with the rest. Its last change
-- names its version in the URL the API hands out, so a browser may keep it as long as it likes.
CREATE TABLE member_photos (
  member_id bigint PRIMARY KEY REFERENCES members(id),
  type text NOT NULL CHECK (type IN ('image/jpeg', 'image/webp', 'image/png')),
  bytes bytea NOT NULL CHECK (octet_length(bytes) BETWEEN 1 AND 65536),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- A new e-mail address waiting for its owner to open the link sent to it
-- (services/members/email-change.ts): single-use, time-limited, only the token's hash kept, like
-- password_resets. The member's address changes only once the link is confirmed.
CREATE TABLE email_changes (
  token_hash bytea PRIMARY KEY,
  member_id bigint NOT NULL REFERENCES members(id),
  new_email text NOT NULL CHECK (new_email = lower(btrim(new_email)) AND new_email <> ''),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX email_changes_member_idx ON email_changes(member_id) WHERE used_at IS NULL;
