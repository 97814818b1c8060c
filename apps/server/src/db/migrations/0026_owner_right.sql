-- The owner's right: managing the association, first of all who holds which right (from a
-- member's page, no longer by SQL). The administrators holding both validation rights are the
-- first owners, so an association that upgrades keeps somebody who can hand rights out.
ALTER TABLE members ADD COLUMN can_manage_association boolean NOT NULL DEFAULT false;
UPDATE members SET can_manage_association = true WHERE can_validate_accounts AND can_validate_credits;
