import { ErrorCode, formatCents, SM } from "@mutua/domain";
import { inTransaction, type Db, type Queryable } from "../../db/pool";
import { audit } from "../platform/audit";
import { notFound, Refusal } from "../platform/errors";

/** Members' unpaid dues, for the owners: listed oldest first, and let off one by one (audited). */

const LIMIT = 200;

export async function listArrears(db: Queryable) {
  const { rows } = await db.query<{
    public_id: string;
    member_id: bigint;
    name: string;
    period: string;
    amount: bigint;
    symbol: string;
    wallet_id: string;
    signed: boolean;
    created_at: Date;
    total: number;
  }>(
    `SELECT r.public_id, r.member_id, m.name, r.period::text, r.amount, c.symbol, r.wallet_id, w.address IS NOT NULL AS signed, r.created_at,
            count(*) OVER ()::int AS total
       FROM dues_runs r JOIN members m ON m.id = r.member_id JOIN wallets w ON w.id = r.wallet_id
       JOIN backends b ON b.id = w.backend_id JOIN currencies c ON c.id = b.currency_id
      WHERE r.status = 'arrears' ORDER BY r.period, m.name, r.id LIMIT ${LIMIT}`,
  );
  return {
    arrears: rows.map((r) => ({
      id: r.public_id,
      member: { id: Number(r.member_id), name: r.name },
      period: r.period,
      amount: formatCents(r.amount),
      currency: r.symbol,
      walletId: r.wallet_id,
      signed: r.signed,
      since: r.created_at.toISOString(),
    })),
    total: rows[0]?.total ?? 0,
  };
}

/**
 * An owner lets a member off a period's unpaid dues: it is no longer tried nor counted in arrears.
 * Locked first, so a waiver and a payment of the same period never both happen; a period paid
 * meanwhile is refused as settled. Audited with the member, period and amount.
 */
export async function waiveDues(db: Db, owner: bigint, duesId: string) {
  await inTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ id: bigint; member_id: bigint; period: string; amount: bigint; status: string }>(
      "SELECT id, member_id, period::text, amount, status FROM dues_runs WHERE public_id = $1 FOR UPDATE",
      [duesId],
    );
    const r = rows[0];
    if (!r) throw notFound();
    if (r.status !== "arrears") throw new Refusal(ErrorCode.stateConflict, { id: SM.duesSettled });
    await tx.query("UPDATE dues_runs SET status = 'waived', waived_by = $2, settled_at = now(), next_try = NULL WHERE id = $1", [r.id, owner]);
    await audit(tx, owner, "dues.waived", `member:${r.member_id}`, { dues: duesId, period: r.period, amount: formatCents(r.amount) });
  });
  return listArrears(db);
}
