import { formatCents, type AccountSummary } from "@mutua/domain";
import { isTimeZone, UNKNOWN_TIME_ZONE } from "@mutua/domain/api/schemas";
import type { Queryable } from "../../db/pool";
import { invalid } from "../platform/errors";

interface Row {
  currency: string;
  today: string;
  month_first: string;
  first_day: string;
  /** sum() of bigint is numeric, which pg hands over as a string. */
  balance: string;
  /** Per local day with movements: what came in, what went out (positive), the net; cents as text. */
  days: { day: string; in: string; out: string; net: string }[] | null;
}

/**
 * The dashboard's figures for one wallet, from the ledger in one statement (one snapshot, so the
 * chart's last point is the balance the same moment shows): this calendar month's money in and
 * out, and the closing balance of each of the last `days` days, days and month being those of the
 * member's time zone `tz`. A movement counts once, by its net amount for this wallet (a payment
 * split across sub-accounts is one payment). Movements are taken through the two per-wallet
 * indexes from the earliest day needed, so the cost follows the wallet's recent activity only.
 * `now` is for tests; the database's clock otherwise.
 */
export async function accountSummary(db: Queryable, walletId: string, q: { tz: string; days: number }, now: Date | null = null): Promise<AccountSummary> {
  if (!isTimeZone(q.tz)) throw invalid({ tz: { id: UNKNOWN_TIME_ZONE } });
  let row: Row;
  try {
    const { rows } = await db.query<Row>(
      `WITH span AS (
         SELECT today, today - ($4::int - 1) AS first_day, date_trunc('month', today)::date AS month_first
         FROM (SELECT (coalesce($3::timestamptz, now()) AT TIME ZONE $2)::date AS today) t
       ),
       since AS (SELECT (least(first_day, month_first)::timestamp AT TIME ZONE $2) AS at FROM span),
       mine AS (
         (SELECT id, created_at FROM movements WHERE payer_wallet_id = $1 AND created_at >= (SELECT at FROM since))
         UNION ALL
         (SELECT id, created_at FROM movements WHERE payee_wallet_id = $1 AND created_at >= (SELECT at FROM since))
       ),
       net AS (
         SELECT (m.created_at AT TIME ZONE $2)::date AS day, sum(p.amount) AS amount
         FROM mine m JOIN postings p ON p.movement_id = m.id JOIN accounts a ON a.id = p.account_id AND a.wallet_id = $1
         GROUP BY m.id, m.created_at
       )
       SELECT c.symbol AS currency, to_char(span.today, 'YYYY-MM-DD') AS today, to_char(span.month_first, 'YYYY-MM-DD') AS month_first,
         to_char(span.first_day, 'YYYY-MM-DD') AS first_day,
         (SELECT coalesce(sum(balance), 0)::text FROM accounts WHERE wallet_id = $1) AS balance,
         (SELECT json_agg(json_build_object('day', to_char(day, 'YYYY-MM-DD'), 'in', "in"::text, 'out', "out"::text, 'net', net::text) ORDER BY day)
          FROM (SELECT day, coalesce(sum(amount) FILTER (WHERE amount > 0), 0) AS "in", coalesce(-sum(amount) FILTER (WHERE amount < 0), 0) AS "out",
                  sum(amount) AS net FROM net GROUP BY day) d) AS days
       FROM wallets w JOIN backends b ON b.id = w.backend_id JOIN currencies c ON c.id = b.currency_id, span
       WHERE w.id = $1`,
      [walletId, q.tz, now, q.days],
    );
    row = rows[0]!;
  } catch (e) {
    // The contract lets through the names this runtime knows; PostgreSQL's list may lack one.
    if ((e as { code?: string }).code === "22023" && /time zone/i.test(String((e as Error).message))) throw invalid({ tz: { id: UNKNOWN_TIME_ZONE } });
    throw e;
  }
  return summarise(row);
}

function summarise(r: Row): AccountSummary {
  const days = (r.days ?? []).map((d) => ({ day: d.day, in: BigInt(d.in), out: BigInt(d.out), net: BigInt(d.net) }));
  // ISO dates compare as text.
  const thisMonth = days.filter((d) => d.day >= r.month_first && d.day <= r.today);
  const monthIn = thisMonth.reduce((s, d) => s + d.in, 0n);
  const monthOut = thisMonth.reduce((s, d) => s + d.out, 0n);
  // Walking back from the balance now: a day closes at the balance less everything after it.
  const points: AccountSummary["points"] = [];
  let balance = BigInt(r.balance);
  let later = days.length - 1;
  for (let day = r.today; day >= r.first_day; day = previousDay(day)) {
    while (later >= 0 && days[later]!.day > day) balance -= days[later--]!.net;
    points.push({ day, balance: formatCents(balance) });
  }
  return { currency: r.currency, monthIn: formatCents(monthIn), monthOut: formatCents(monthOut), points: points.reverse() };
}

/** "2026-03-01" → "2026-02-28": calendar arithmetic on the date alone (no time zone involved). */
function previousDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}
