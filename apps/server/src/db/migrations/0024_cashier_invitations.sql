-- Up Migration

-- Naming a cashier invites them (services/cashiers.ts). The owner types an e-mail address and gets
-- the same answer, and the same row, whether a member holds it or not: naming a cashier tells the
-- owner neither who is a member nor their name. The member holding the address, if any, is told
-- (the trigger below) and accepts or declines in their app; only acceptance makes them a cashier
-- (a wallet_cashiers row, and this row goes). Until then the row counts among the wallet's
-- cashiers, and it lapses at `expires_at`: an invitation to nobody's address simply never ends
-- otherwise.
CREATE TABLE cashier_invitations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  wallet_id text NOT NULL REFERENCES wallets(id),
  -- The address the owner typed, normalised: all the owner sees of the invitee until they accept.
  email text NOT NULL,
  -- The member who held the address when it was named; null when none did.
  member_id bigint REFERENCES members(id),
  invited_by bigint NOT NULL REFERENCES members(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  -- The invitee said no: the owner sees it until they remove it or it lapses.
  declined_at timestamptz,
  UNIQUE (wallet_id, email)
);
-- The invitations a member has to answer.
CREATE INDEX cashier_invitations_member ON cashier_invitations (member_id) WHERE member_id IS NOT NULL;

-- The invitee hears of it like of their money: an event of its own, written in the naming's
-- transaction, on the till's wallet (whose owner the notification names).
ALTER TABLE member_events DROP CONSTRAINT member_events_kind_check;
ALTER TABLE member_events ADD CONSTRAINT member_events_kind_check CHECK (kind IN ('payment_received', 'payment_sent',
  'topup_credited', 'reconversion_sent', 'reconversion_stage', 'wallet_approved', 'wallet_discarded', 'cashier_invited'));
ALTER TABLE member_events DROP CONSTRAINT member_events_check;
ALTER TABLE member_events ADD CONSTRAINT member_events_check
  CHECK ((kind IN ('wallet_approved', 'wallet_discarded', 'cashier_invited')) = (movement_id IS NULL));

CREATE FUNCTION member_events_of_cashier_invitation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO member_events (member_id, kind, wallet_id) VALUES (NEW.member_id, 'cashier_invited', NEW.wallet_id);
  RETURN NULL;
END $$;
CREATE TRIGGER cashier_invitations_member_events AFTER INSERT ON cashier_invitations
  FOR EACH ROW WHEN (NEW.member_id IS NOT NULL) EXECUTE FUNCTION member_events_of_cashier_invitation();
