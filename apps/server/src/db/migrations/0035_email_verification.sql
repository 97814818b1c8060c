-- Up Migration

-- Whether a member's address is proven: the last time they opened a link sent to it (their
-- sign-up's confirmation, a password reset, an invitation, or an address change's confirmation).
-- NULL is "not proven": money an import brings to an existing account waits for the proof
-- (services/import), so that whoever signed up first with somebody else's address gets nothing.
ALTER TABLE members ADD COLUMN email_verified_at timestamptz;

-- What members made before this column had already proven: a password chosen through a reset or
-- invitation link, or an address changed through its confirmation link.
UPDATE members m SET email_verified_at = p.at
FROM (SELECT member_id, max(used_at) AS at FROM password_resets WHERE used_at IS NOT NULL GROUP BY member_id) p
WHERE p.member_id = m.id;
UPDATE members m SET email_verified_at = greatest(m.email_verified_at, c.at)
FROM (SELECT member_id, new_email, max(used_at) AS at FROM email_changes WHERE used_at IS NOT NULL GROUP BY member_id, new_email) c
WHERE c.member_id = m.id AND c.new_email = m.email;

-- A member who signed up and has not opened the link sent to their address yet: they cannot sign
-- in (so neither receive nor spend) until they do (services/members/email-confirmation.ts).
-- False for every member made otherwise (setup, an administrator, an import: their link is the
-- invitation to choose a password).
ALTER TABLE members ADD COLUMN awaiting_email_confirmation boolean NOT NULL DEFAULT false;

-- The sign-up confirmation links: single-use, time-limited, only the token's hash kept, like
-- password_resets.
CREATE TABLE email_confirmations (
  token_hash bytea PRIMARY KEY,
  member_id bigint NOT NULL REFERENCES members(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX email_confirmations_member_idx ON email_confirmations(member_id) WHERE used_at IS NULL;
