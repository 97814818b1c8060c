import { ErrorCode, formatCents, SM, type Books, type MovementKind, type WalletRole } from "@mutua/domain";
import { inTransaction, type Db, type Tx } from "../db/pool";
import { audit } from "./audit";
import { Refusal } from "./errors";
import { PERIOD_BOUNDS, readPeriod, type Period } from "./period";

/** The most movements one answer lists: a longer period is refused, never cut (its sums would not add up). */
export const BOOKS_MAX_MOVEMENTS = 100_000;

interface Row {
  public_id: string;
  kind: MovementKind;
  created_at: Date;
  local_date: string;
  amount: bigint;
  sender_memo: string;
  recipient_memo: string;
  symbol: string;
  currency_name: string;
  payer_wallet_id: string;
  payer_role: WalletRole;
  payer_name: string | null;
  payer_after: string;
  payee_wallet_id: string;
  payee_role: WalletRole;
  payee_name: string | null;
  payee_after: string;
}

/**
 * A wallet's balance (all its accounts) just after a movement: each account's balance_after at
 * its last posting up to the movement's last one. Posting ids follow each account's order
 * (they are written under the account's lock), so this is the balance the movement left.
 */
const balanceAfter = (wallet: string) => `(
  SELECT coalesce(sum(x.b), 0) FROM accounts a
  CROSS JOIN LATERAL (SELECT p.balance_after AS b FROM postings p WHERE p.account_id = a.id AND p.id <= last.id ORDER BY p.id DESC LIMIT 1) x
  WHERE a.wallet_id = ${wallet})::text`;

/**
 * The books of a period (issue 22): every movement, oldest first, with both sides' names and
 * balances after it, from one snapshot. The app makes the accountant's CSV files of it, the
 * movements and each account's statement, whose sums are the figures' totals.
 */
export async function books(db: Db, q: Period, max = BOOKS_MAX_MOVEMENTS): Promise<Books> {
  return readPeriod(db, q, async (tx: Tx) => {
    const { rows } = await tx.query<Row>(
      `WITH ${PERIOD_BOUNDS},
       mv AS (
         SELECT m.* FROM movements m, bounds
         WHERE m.created_at >= bounds.start_at AND m.created_at < bounds.end_at
         ORDER BY m.created_at, m.id LIMIT $4
       )
       SELECT mv.public_id, mv.kind, mv.created_at, to_char(mv.created_at AT TIME ZONE $3, 'YYYY-MM-DD HH24:MI:SS') AS local_date,
         mv.amount, mv.sender_memo, mv.recipient_memo, c.symbol, c.name AS currency_name,
         mv.payer_wallet_id, pw.role AS payer_role, pm.name AS payer_name, ${balanceAfter("mv.payer_wallet_id")} AS payer_after,
         mv.payee_wallet_id, ew.role AS payee_role, em.name AS payee_name, ${balanceAfter("mv.payee_wallet_id")} AS payee_after
       FROM mv JOIN currencies c ON c.id = mv.currency_id
       JOIN wallets pw ON pw.id = mv.payer_wallet_id LEFT JOIN members pm ON pm.id = pw.member_id
       JOIN wallets ew ON ew.id = mv.payee_wallet_id LEFT JOIN members em ON em.id = ew.member_id
       CROSS JOIN LATERAL (SELECT max(id) AS id FROM postings WHERE movement_id = mv.id) last
       ORDER BY mv.created_at, mv.id`,
      [q.from, q.to, q.tz, max + 1],
    );
    if (rows.length > max) throw new Refusal(ErrorCode.validation, { id: SM.booksTooLong, values: { max } });
    return {
      from: q.from,
      to: q.to,
      tz: q.tz,
      movements: rows.map((r) => ({
        reference: r.public_id,
        kind: r.kind,
        date: r.created_at.toISOString(),
        localDate: r.local_date,
        currency: r.symbol,
        currencyName: r.currency_name,
        amount: formatCents(r.amount),
        senderMemo: r.sender_memo,
        recipientMemo: r.recipient_memo,
        payer: { walletId: r.payer_wallet_id, name: r.payer_name, role: r.payer_role, balanceAfter: formatCents(BigInt(r.payer_after)) },
        payee: { walletId: r.payee_wallet_id, name: r.payee_name, role: r.payee_role, balanceAfter: formatCents(BigInt(r.payee_after)) },
      })),
    };
  });
}

/** The books for a board member: they name members and what they paid, so who took them out, and which period, is audited. */
export async function exportBooks(db: Db, by: bigint, q: Period): Promise<Books> {
  const out = await books(db, q);
  await inTransaction(db, (tx) => audit(tx, by, "books.exported", "books", { from: q.from, to: q.to, movements: out.movements.length }));
  return out;
}
