import type { MemberWallet } from "@mutua/domain";
import { inTransaction, type Db, type Tx } from "../../db/pool";
import { audit } from "../platform/audit";
import { notFound } from "../platform/errors";
import { memberWallet } from "../wallets/limits";
import { refuseOwn } from "../platform/separation";

/**
 * Freezing a member's wallet: while frozen it neither sends nor receives — the ledger
 * refuses any movement touching it (`ledger_post`, db/functions/ledger_post.sql) — and its owner sees the reason.
 * The wallet's accounts are locked before the change, as a movement locks them, so every movement
 * either committed before the freeze or sees it. Each change is audited in its own transaction,
 * with the state before and after and the reason. An administrator neither freezes nor unfreezes
 * their own wallet: re-freezing it would make a freeze put by another administrator their own to lift.
 */
export async function freezeWallet(db: Db, admin: bigint, walletId: string, reason: string): Promise<MemberWallet> {
  return inTransaction(db, async (tx) => {
    const before = await lockMemberWallet(tx, walletId, admin);
    await tx.query("UPDATE wallets SET frozen_at = now(), frozen_reason = $2, frozen_by = $3 WHERE id = $1", [walletId, reason, admin]);
    await audit(tx, admin, "wallet.frozen", walletId, { reason, before: { frozenReason: before }, after: { frozenReason: reason } });
    return memberWallet(tx, walletId);
  });
}

/** Gives a frozen wallet back its use; unfreezing a wallet that is not frozen changes nothing and is not audited. */
export async function unfreezeWallet(db: Db, admin: bigint, walletId: string): Promise<MemberWallet> {
  return inTransaction(db, async (tx) => {
    const before = await lockMemberWallet(tx, walletId, admin);
    if (before !== null) {
      await tx.query("UPDATE wallets SET frozen_at = NULL, frozen_reason = NULL, frozen_by = NULL WHERE id = $1", [walletId]);
      await audit(tx, admin, "wallet.unfrozen", walletId, { reason: before, before: { frozenReason: before }, after: { frozenReason: null } });
    }
    return memberWallet(tx, walletId);
  });
}

/**
 * Locks a member's wallet's accounts (in id order, as movements do), then the wallet row, and
 * answers its current freeze reason; the administrator's own wallet is refused. FOR NO KEY
 * UPDATE, not FOR UPDATE: a movement being posted holds its accounts and takes a key-share lock
 * on each wallet (the movement's foreign keys), which a FOR UPDATE would block: each would wait
 * for the other.
 */
async function lockMemberWallet(tx: Tx, walletId: string, admin: bigint): Promise<string | null> {
  await tx.query("SELECT 1 FROM accounts WHERE wallet_id = $1 ORDER BY id FOR UPDATE", [walletId]);
  const { rows } = await tx.query<{ frozen_reason: string | null; member_id: bigint | null }>(
    "SELECT frozen_reason, member_id FROM wallets WHERE id = $1 AND role = 'member' AND status <> 'discarded' FOR NO KEY UPDATE",
    [walletId],
  );
  if (!rows[0]) throw notFound();
  refuseOwn(admin, "ownFreeze", rows[0].member_id);
  return rows[0].frozen_reason;
}
