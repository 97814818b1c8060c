import { ErrorCode, SM } from "@mutua/domain";
import type { Queryable } from "../../db/pool";
import { Refusal, notFound } from "../platform/errors";

/**
 * Tills: who may take payments into a wallet and see its sales — its owner, and the
 * cashiers who accepted the owner's invitation (wallet_cashiers; services/shops/cashiers.ts names them)
 * — and nothing more for the cashiers. A pending or declined invitation gives no right at all.
 */

export interface TillWallet {
  id: string;
  ownerId: bigint;
  status: string;
  /** The owner's name: whose shop it is. */
  shopName: string;
  currency: string;
  /** Frozen by the association: the till takes no payment until it is unfrozen. */
  frozen: boolean;
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
  const { rows } = await db.query<{ id: string; member_id: bigint; status: string; name: string; symbol: string; frozen: boolean }>(
    `SELECT w.id, w.member_id, w.status, m.name, c.symbol, w.frozen_reason IS NOT NULL AS frozen
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
  return { id: w.id, ownerId: w.member_id, status: w.status, shopName: w.name, currency: w.symbol, frozen: w.frozen };
}

/** The tills `me` runs for others: the wallets they are a cashier of, named after their owner. */
export async function listTills(db: Queryable, me: bigint) {
  const { rows } = await db.query<{ id: string; name: string; symbol: string; currency_name: string; frozen: boolean }>(
    `SELECT w.id, m.name, c.symbol, c.name AS currency_name, w.frozen_reason IS NOT NULL AS frozen
       FROM wallet_cashiers k
       JOIN wallets w ON w.id = k.wallet_id
       JOIN members m ON m.id = w.member_id
       JOIN backends b ON b.id = w.backend_id
       JOIN currencies c ON c.id = b.currency_id
      WHERE k.member_id = $1 AND w.status = 'active'
      ORDER BY m.name, w.id`,
    [me],
  );
  return rows.map((r) => ({ walletId: r.id, shopName: r.name, currency: r.symbol, currencyName: r.currency_name, frozen: r.frozen }));
}
