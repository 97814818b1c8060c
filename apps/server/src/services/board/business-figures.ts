import type { Queryable } from "../../db/pool";

/**
 * The board's figure of the directory: how many businesses are listed, how many of them were
 * paid since `since` (30 days before now unless said), and what share of the members' payments
 * since then went to a listed business (by count), read in one statement from the ledger.
 */
export async function businessFigures(db: Queryable, sinceText: string | undefined, now = new Date()) {
  const since = sinceText ? new Date(sinceText) : new Date(now.getTime() - 30 * 86_400_000);
  const { rows } = await db.query<{ listed: number; active: number; payments: number; to_businesses: number }>(
    `WITH listed AS (SELECT member_id FROM businesses WHERE status = 'approved'),
          paid AS (
            SELECT m.payee_wallet_id, w.member_id AS payee
              FROM movements m JOIN wallets w ON w.id = m.payee_wallet_id
             WHERE m.kind = 'payment' AND w.role = 'member' AND m.created_at >= $1)
     SELECT (SELECT count(*) FROM listed)::int AS listed,
            (SELECT count(DISTINCT payee) FROM paid WHERE payee IN (SELECT member_id FROM listed))::int AS active,
            (SELECT count(*) FROM paid)::int AS payments,
            (SELECT count(*) FROM paid WHERE payee IN (SELECT member_id FROM listed))::int AS to_businesses`,
    [since],
  );
  const r = rows[0]!;
  return {
    listed: r.listed,
    active: r.active,
    since: since.toISOString(),
    payments: r.payments,
    toBusinesses: r.to_businesses,
    share: r.payments === 0 ? null : Math.round((r.to_businesses / r.payments) * 1000) / 10,
  };
}
