import { ErrorCode, LIMITS, SM } from "@mutua/domain";
import { inTransaction, type Db, type Queryable } from "../db/pool";
import { audit } from "./audit";
import { Refusal, invalid, notFound } from "./errors";
import { findMemberByEmail } from "./members";
import { getOwnWallet } from "./wallets";

/**
 * Tills (issue 20): who may take payments into a wallet and see its sales — its owner, and the
 * cashiers the owner named (wallet_cashiers) — and nothing more for the cashiers.
 */

export interface TillWallet {
  id: string;
  ownerId: bigint;
  status: string;
  /** The owner's name: whose shop it is. */
  shopName: string;
  currency: string;
}

/** Whether `member` is a cashier of the wallet (not its owner). */
export async function isCashierOf(db: Queryable, member: bigint, walletId: string): Promise<boolean> {
  const { rowCount } = await db.query("SELECT 1 FROM wallet_cashiers WHERE wallet_id = $1 AND member_id = $2", [walletId, member]);
  return Boolean(rowCount);
}

/** What a cashier is told on any other route of the wallet: it exists for them, and is not theirs to use. */
export const cashierOnly = () => new Refusal(ErrorCode.forbidden, { id: SM.cashierOnly });

/** A member's wallet whose till `me` may run (its owner or one of its cashiers); for anybody else it does not exist. */
export async function tillWallet(db: Queryable, me: bigint, walletId: string): Promise<TillWallet> {
  const { rows } = await db.query<{ id: string; member_id: bigint; status: string; name: string; symbol: string }>(
    `SELECT w.id, w.member_id, w.status, m.name, c.symbol
       FROM wallets w
       JOIN members m ON m.id = w.member_id
       JOIN backends b ON b.id = w.backend_id
       JOIN currencies c ON c.id = b.currency_id
      WHERE w.id = $1 AND w.role = 'member' AND w.status <> 'discarded'
        AND (w.member_id = $2 OR EXISTS (SELECT 1 FROM wallet_cashiers k WHERE k.wallet_id = w.id AND k.member_id = $2))`,
    [walletId, me],
  );
  const w = rows[0];
  if (!w) throw notFound();
  return { id: w.id, ownerId: w.member_id, status: w.status, shopName: w.name, currency: w.symbol };
}

/** The tills `me` runs for others: the wallets they are a cashier of, named after their owner. */
export async function listTills(db: Queryable, me: bigint) {
  const { rows } = await db.query<{ id: string; name: string; symbol: string; currency_name: string }>(
    `SELECT w.id, m.name, c.symbol, c.name AS currency_name
       FROM wallet_cashiers k
       JOIN wallets w ON w.id = k.wallet_id
       JOIN members m ON m.id = w.member_id
       JOIN backends b ON b.id = w.backend_id
       JOIN currencies c ON c.id = b.currency_id
      WHERE k.member_id = $1 AND w.status = 'active'
      ORDER BY m.name, w.id`,
    [me],
  );
  return rows.map((r) => ({ walletId: r.id, shopName: r.name, currency: r.symbol, currencyName: r.currency_name }));
}

/** The owner's wallet, or the refusal anybody else gets (a cashier of it included: managing cashiers is the owner's). */
async function ownedTill(db: Queryable, me: bigint, walletId: string) {
  const w = await getOwnWallet(db, me, walletId);
  if (!w || w.role !== "member") throw notFound();
  return w;
}

export async function listCashiers(db: Queryable, me: bigint, walletId: string) {
  const w = await ownedTill(db, me, walletId);
  const { rows } = await db.query<{ member_id: bigint; name: string; email: string; created_at: Date }>(
    `SELECT k.member_id, m.name, m.email, k.created_at FROM wallet_cashiers k JOIN members m ON m.id = k.member_id
      WHERE k.wallet_id = $1 ORDER BY k.created_at, k.member_id`,
    [w.id],
  );
  return rows.map((r) => ({ memberId: Number(r.member_id), name: r.name, email: r.email, since: r.created_at.toISOString() }));
}

/**
 * The owner lets the member of this e-mail address run the wallet's till. Naming one already a
 * cashier changes nothing; the grant and the owner are in the audit log, in the grant's transaction.
 */
export async function grantCashier(db: Db, me: bigint, walletId: string, email: string) {
  const w = await ownedTill(db, me, walletId);
  const cashier = await findMemberByEmail(db, email);
  // The directory finds a member by their full address already: saying none has it tells nothing more.
  if (!cashier) throw new Refusal(ErrorCode.notFound, { id: SM.cashierUnknown });
  if (cashier.id === me) throw invalid({ email: { id: SM.cashierSelf } });
  await inTransaction(db, async (tx) => {
    // One grant at a time per wallet, so the cap holds whatever the number of tabs granting at once.
    await tx.query("SELECT 1 FROM wallets WHERE id = $1 FOR UPDATE", [w.id]);
    const { rows } = await tx.query<{ n: number; already: boolean }>(
      "SELECT count(*)::int AS n, bool_or(member_id = $2) AS already FROM wallet_cashiers WHERE wallet_id = $1",
      [w.id, cashier.id],
    );
    if (rows[0]!.already) return;
    if (rows[0]!.n >= LIMITS.cashiersPerWallet)
      throw new Refusal(ErrorCode.stateConflict, { id: SM.cashierTooMany, values: { max: LIMITS.cashiersPerWallet } });
    await tx.query("INSERT INTO wallet_cashiers (wallet_id, member_id, granted_by) VALUES ($1, $2, $3)", [w.id, cashier.id, me]);
    await audit(tx, me, "cashier_granted", w.id, { cashier: Number(cashier.id), name: cashier.name });
  });
  return (await listCashiers(db, me, w.id)).find((c) => c.memberId === Number(cashier.id))!;
}

/** The owner withdraws a cashier's access; withdrawing one who has none changes nothing. */
export async function revokeCashier(db: Db, me: bigint, walletId: string, memberId: number) {
  const w = await ownedTill(db, me, walletId);
  await inTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ name: string }>(
      "DELETE FROM wallet_cashiers k USING members m WHERE k.wallet_id = $1 AND k.member_id = $2 AND m.id = k.member_id RETURNING m.name",
      [w.id, memberId],
    );
    if (rows[0]) await audit(tx, me, "cashier_revoked", w.id, { cashier: memberId, name: rows[0].name });
  });
  return { ok: true as const };
}
