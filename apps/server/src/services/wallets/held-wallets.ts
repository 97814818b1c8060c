import type { Tx } from "../../db/pool";
import { audit } from "../platform/audit";

/**
 * The wallets an import holds (migration 0037). The import knows a member already here by their
 * e-mail alone, and an address nobody proved is anybody's: whoever signed up first with an address
 * of the old system's export would receive that person's balance and history. So when the address
 * of a member already here was never proven (members.email_verified_at is null), their wallet on
 * the backend is pending while the import posts into it, and stays so, held:
 *
 * - pending, it neither sends nor receives (ledger_post refuses it), its member sees no balance in
 *   it, and neither its balance nor its movements are theirs to read (getOwnWallet);
 * - held, account administrators do not see it among the wallets to approve, nor can they
 *   approve it (wallets/staging.ts): only the address's owner releases it;
 * - the import's invitation goes to the address (members/invitations.ts), and when a link sent to it is
 *   opened (that invitation, or a password reset: setNewPassword, which also gives the account a
 *   new password and signs everybody out), the wallet becomes what it would have been had the
 *   address been proven: active, or still pending if its member had asked for it before the
 *   import and an account administrator had not approved it yet.
 *
 * Every movement stays a balanced movement of the ledger, posted once: holding changes the
 * wallet's status, never its money, and nothing moves into a frozen wallet (the import refuses
 * those lines).
 */

/**
 * Holds the wallets of the staged members (import_members) whose address is not proven: makes
 * them pending (a new wallet is made so by the import) and records what to give back.
 */
export async function holdUnprovenWallets(tx: Tx, importId: bigint): Promise<number> {
  const { rowCount } = await tx.query(
    `INSERT INTO import_held_wallets (wallet_id, member_id, email, import_id, release_to)
     SELECT s.wallet_id, s.member_id, s.email, $1, coalesce(s.wallet_status, 'active')
     FROM import_members s WHERE s.existing AND NOT s.verified ORDER BY s.line`,
    [importId],
  );
  await tx.query(
    `UPDATE wallets w SET status = 'pending' FROM import_members s
     WHERE w.id = s.wallet_id AND s.existing AND NOT s.verified AND w.status <> 'pending'`,
  );
  return rowCount ?? 0;
}

/** Whether a wallet is held for its member's address: not theirs to use, nor an administrator's to approve. */
export const HELD = (wallet: string) => `EXISTS (SELECT 1 FROM import_held_wallets held WHERE held.wallet_id = ${wallet} AND held.released_at IS NULL)`;

/**
 * The member opened a link sent to their address: the wallets held for that address are theirs.
 * Held for another address (the member changed theirs since the import), they stay held: this
 * link proves the new one. Whatever lasting sign-in the account had before (passkeys) was made by
 * whoever held it while the address was unproven, perhaps not its owner: they go with the hold,
 * as the password and the sessions do (setNewPassword).
 */
export async function releaseHeldWallets(db: Tx, memberId: bigint): Promise<number> {
  const { rows } = await db.query<{ wallet_id: string; release_to: string }>(
    `UPDATE import_held_wallets h SET released_at = now()
     FROM members m WHERE m.id = h.member_id AND h.member_id = $1 AND h.released_at IS NULL AND m.email = h.email
     RETURNING h.wallet_id, h.release_to`,
    [memberId],
  );
  if (rows.length === 0) return 0;
  for (const r of rows) await db.query("UPDATE wallets SET status = $2 WHERE id = $1 AND status = 'pending'", [r.wallet_id, r.release_to]);
  const { rowCount: passkeys } = await db.query("DELETE FROM passkeys WHERE member_id = $1", [memberId]);
  await audit(db, memberId, "import.released", `member:${memberId}`, { wallets: rows.map((r) => r.wallet_id), passkeysRemoved: passkeys ?? 0 });
  return rows.length;
}
