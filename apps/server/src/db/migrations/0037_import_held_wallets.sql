-- Up Migration

-- The wallets an import holds (services/import/held-wallets.ts): the balance and history the old
-- system's file gives a member who was already here, but whose address nobody ever proved. Whoever
-- signed up first with somebody else's address must not receive that person's money, so the
-- wallet stays pending — it neither sends nor receives, its member sees no balance nor history in
-- it, and account administrators do not see it among the wallets to approve — until a link sent to
-- that same address is opened (the import's invitation, or a password reset). It then becomes
-- what it would have been: active, or still waiting for an account administrator's approval if
-- the member had asked for it before the import.
CREATE TABLE import_held_wallets (
  wallet_id text PRIMARY KEY REFERENCES wallets(id),
  member_id bigint NOT NULL REFERENCES members(id),
  -- The address the import found the member by: a link opened while the member has another one
  -- proves that other address, not this one.
  email text NOT NULL,
  import_id bigint NOT NULL REFERENCES imports(id),
  -- What the wallet becomes once the address is proven: the status it had, or active for a wallet
  -- the import made.
  release_to text NOT NULL CHECK (release_to IN ('active', 'pending', 'locked')),
  created_at timestamptz NOT NULL DEFAULT now(),
  released_at timestamptz
);
CREATE INDEX import_held_wallets_member ON import_held_wallets (member_id) WHERE released_at IS NULL;
