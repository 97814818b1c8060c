import type { Queryable } from "../db/pool";
import { notFound } from "./errors";

export interface TillWallet {
  id: string;
  ownerId: bigint;
  /** The owner's name: whose shop it is. */
  shopName: string;
  currency: string;
}

/**
 * A wallet whose till `me` may run (issue 20): take payments into it and see its sales. Its owner
 * may; for anybody else it does not exist.
 */
export async function tillWallet(db: Queryable, me: bigint, walletId: string): Promise<TillWallet> {
  const { rows } = await db.query<{ id: string; member_id: bigint; name: string; symbol: string }>(
    `SELECT w.id, w.member_id, m.name, c.symbol
       FROM wallets w
       JOIN members m ON m.id = w.member_id
       JOIN backends b ON b.id = w.backend_id
       JOIN currencies c ON c.id = b.currency_id
      WHERE w.id = $1 AND w.role = 'member' AND w.status <> 'discarded' AND w.member_id = $2`,
    [walletId, me],
  );
  const w = rows[0];
  if (!w) throw notFound();
  return { id: w.id, ownerId: w.member_id, shopName: w.name, currency: w.symbol };
}
