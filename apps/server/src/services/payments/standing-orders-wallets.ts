import type { Queryable } from "../../db/pool";
import type { WalletRow } from "../wallets/wallets";

/** A wallet of a standing order, with its owner's name (what a payee's refusal names). */
export type OrderWallet = WalletRow & { owner_name: string | null };

/**
 * The two wallets of a standing order, as a payment reads them (services/payments/payments.ts),
 * for its one rule (`paymentRefusal`): at set-up, and again on each day it is paid.
 */
export async function orderWallets(db: Queryable, from: string, to: string): Promise<{ payer: OrderWallet | null; payee: OrderWallet | null }> {
  const { rows } = await db.query<OrderWallet>(
    "SELECT w.*, m.name AS owner_name FROM wallets w LEFT JOIN members m ON m.id = w.member_id WHERE w.id = ANY($1::text[])",
    [[from, to]],
  );
  return { payer: rows.find((w) => w.id === from) ?? null, payee: rows.find((w) => w.id === to) ?? null };
}
