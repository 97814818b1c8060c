-- Up Migration

-- Cashiers: members a wallet's owner lets run its till — take payments into it and see
-- its sales — and nothing else of it: not its balance, not sending from it, not its wallet file,
-- not its settings (apps/server/src/http/contract.ts answers them 403). A revocation deletes the
-- row; the audit log keeps every grant and revocation.
CREATE TABLE wallet_cashiers (
  wallet_id text NOT NULL REFERENCES wallets(id),
  member_id bigint NOT NULL REFERENCES members(id),
  granted_by bigint NOT NULL REFERENCES members(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (wallet_id, member_id)
);
-- The tills a member runs (their app's list), and the check of every till call.
CREATE INDEX wallet_cashiers_member ON wallet_cashiers (member_id);
