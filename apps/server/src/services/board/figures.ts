import { formatCents, type CurrencyFigures, type FigureInterval, type Figures, type TradeBalance } from "@mutua/domain";
import type { Db, Tx } from "../../db/pool";
import { PERIOD_BOUNDS, readPeriod, type Period } from "./period";
import { hit, type Limit } from "../platform/rate-limit";
import { OWED_ON_LINK } from "../federation/links";
import { settlementsOf } from "../federation/settlements";

/** "Active" members paid or were paid within this many days before the figures' instant. */
export const ACTIVE_DAYS = 30;

export interface FiguresQuery extends Period {
  interval: FigureInterval;
}

/** Every kind of movement: a retirement is a reconversion paid out, when the reserve goes down. */
const FLOW_KINDS = ["payment", "topup", "reconversion", "retirement"] as const;
type FlowKind = (typeof FLOW_KINDS)[number];
type Flows = CurrencyFigures["totals"];

const emptyFlows = (): Flows => ({
  payment: { count: 0, volume: "0.00" },
  topup: { count: 0, volume: "0.00" },
  reconversion: { count: 0, volume: "0.00" },
  retirement: { count: 0, volume: "0.00" },
});

/**
 * The board's figures, for every currency, computed from the ledger in one
 * read-only snapshot (REPEATABLE READ), so they add up with each other and with the ledger at
 * one instant. The period runs from the start of `from` to the end of `to` in `tz`.
 *
 * Stock figures stand at the end of the period: a member account's balance is the sum of its
 * postings before it, which is the account's balance itself for a period that ends today.
 * The reserve is what the ledger says came in and went out in national currency: top-ups
 * credited and opening balances brought from the old system (whose national currency the
 * association holds), less reconversions paid out (their retirement movements); and the
 * settlements of links with other associations: paid out by the side that owed (its clearing
 * wallet into its issuance wallet), received by the other (its issuance wallet into its clearing
 * wallet), in national currency between the two boards. Opening balances
 * are no flow of the day they were imported on: the flows leave them out. The flows count the
 * period's movements by kind, in week or month buckets of `tz`.
 */
export async function figures(db: Db, q: FiguresQuery): Promise<Figures> {
  return readPeriod(db, q, (tx) => read(tx, q));
}

/** The figures for a board member, counted against their budget (`limit`, per member): each one aggregates the ledger over the period. */
export async function boardFigures(db: Db, limit: Limit, by: bigint, q: FiguresQuery): Promise<Figures> {
  await hit(db, `figures:member:${by}`, limit);
  return figures(db, q);
}

async function read(tx: Tx, q: FiguresQuery): Promise<Figures> {
  const args = [q.from, q.to, q.tz];
  const { rows: head } = await tx.query<{ as_of: Date }>(`WITH ${PERIOD_BOUNDS} SELECT least(end_at, now()) AS as_of FROM bounds`, args);
  const asOf = head[0]!.as_of;

  // Member accounts at the end of the period (cents as text: sum() of bigint is numeric).
  const { rows: stocks } = await tx.query<{
    currency_id: string;
    name: string;
    symbol: string;
    circulation: string;
    has_cm: boolean;
    cm_negative: string;
    cm_positive: string;
    at_floor: number;
    at_ceiling: number;
  }>(
    `WITH ${PERIOD_BOUNDS},
     balances AS (
       SELECT a.currency_id, a.kind, a.floor, a.ceiling,
         coalesce((SELECT sum(p.amount) FROM postings p JOIN movements m ON m.id = p.movement_id
                   WHERE p.account_id = a.id AND m.created_at < (SELECT end_at FROM bounds)), 0) AS balance
       FROM accounts a JOIN wallets w ON w.id = a.wallet_id
       WHERE w.role = 'member'
     )
     SELECT c.id AS currency_id, c.name, c.symbol,
       coalesce(sum(b.balance), 0)::text AS circulation,
       coalesce(bool_or(b.kind = 'cm'), false) AS has_cm,
       coalesce(sum(b.balance) FILTER (WHERE b.kind = 'cm' AND b.balance < 0), 0)::text AS cm_negative,
       coalesce(sum(b.balance) FILTER (WHERE b.kind = 'cm' AND b.balance > 0), 0)::text AS cm_positive,
       count(*) FILTER (WHERE b.kind = 'cm' AND b.floor < 0 AND b.balance <= b.floor)::int AS at_floor,
       count(*) FILTER (WHERE b.kind = 'cm' AND b.ceiling IS NOT NULL AND b.balance >= b.ceiling)::int AS at_ceiling
     FROM currencies c LEFT JOIN balances b ON b.currency_id = c.id
     WHERE EXISTS (SELECT 1 FROM backends WHERE currency_id = c.id)
     GROUP BY c.id, c.name, c.symbol ORDER BY c.name, c.id`,
    args,
  );

  const { rows: reserves } = await tx.query<{ currency_id: string; reserve: string }>(
    `WITH ${PERIOD_BOUNDS}
     SELECT m.currency_id,
       (coalesce(sum(m.amount) FILTER (WHERE m.kind IN ('topup', 'opening') OR (m.kind = 'settlement' AND pw.role = 'issuance')), 0)
        - coalesce(sum(m.amount) FILTER (WHERE m.kind = 'retirement' OR (m.kind = 'settlement' AND pw.role = 'clearing')), 0))::text AS reserve
     FROM movements m JOIN wallets pw ON pw.id = m.payer_wallet_id
     WHERE m.kind IN ('topup', 'opening', 'retirement', 'settlement') AND m.created_at < (SELECT end_at FROM bounds) GROUP BY m.currency_id`,
    args,
  );

  const { rows: people } = await tx.query<{ currency_id: string; with_wallet: number; active: number }>(
    `WITH ${PERIOD_BOUNDS},
     instant AS (SELECT least(end_at, now()) AS t FROM bounds),
     active AS (
       SELECT DISTINCT mv.currency_id, w.member_id
       FROM movements mv JOIN wallets w ON w.id IN (mv.payer_wallet_id, mv.payee_wallet_id)
       WHERE mv.kind = 'payment' AND w.role = 'member'
         AND mv.created_at >= (SELECT t FROM instant) - make_interval(days => $4) AND mv.created_at < (SELECT t FROM instant)
     )
     SELECT b.currency_id,
       count(DISTINCT w.member_id) FILTER (WHERE w.status = 'active' AND w.created_at < (SELECT end_at FROM bounds))::int AS with_wallet,
       (SELECT count(*) FROM active WHERE active.currency_id = b.currency_id)::int AS active
     FROM backends b JOIN wallets w ON w.backend_id = b.id AND w.role = 'member'
     GROUP BY b.currency_id`,
    [...args, ACTIVE_DAYS],
  );

  // Every bucket of the period, even an empty one: a chart with gaps would hide a quiet month.
  const { rows: buckets } = await tx.query<{ start: string }>(
    `SELECT to_char(d, 'YYYY-MM-DD') AS start
     FROM generate_series(date_trunc($3, $1::date::timestamp), date_trunc($3, $2::date::timestamp), ('1 ' || $3)::interval) d`,
    [q.from, q.to, q.interval],
  );
  const { rows: flows } = await tx.query<{ currency_id: string; start: string; kind: FlowKind; n: number; volume: string }>(
    `WITH ${PERIOD_BOUNDS}
     SELECT currency_id, to_char(date_trunc($4, created_at AT TIME ZONE $3), 'YYYY-MM-DD') AS start, kind, count(*)::int AS n, sum(amount)::text AS volume
     FROM movements
     WHERE created_at >= (SELECT start_at FROM bounds) AND created_at < (SELECT end_at FROM bounds) AND kind = ANY ($5::text[])
     GROUP BY 1, 2, 3`,
    [...args, q.interval, FLOW_KINDS],
  );

  // Dues collected in the period (their movements) and unpaid now, from the same snapshot.
  const { rows: dues } = await tx.query<{ currency_id: string; n: number; volume: string; late: number; owed: string }>(
    `WITH ${PERIOD_BOUNDS},
     collected AS (
       SELECT currency_id, count(*)::int AS n, sum(amount)::text AS volume FROM movements
        WHERE kind = 'dues' AND created_at >= (SELECT start_at FROM bounds) AND created_at < (SELECT end_at FROM bounds) GROUP BY currency_id
     ),
     late AS (
       SELECT b.currency_id, count(*)::int AS late, sum(r.amount)::text AS owed FROM dues_runs r
         JOIN wallets w ON w.id = r.wallet_id JOIN backends b ON b.id = w.backend_id
        WHERE r.status = 'arrears' GROUP BY b.currency_id
     )
     SELECT coalesce(c.currency_id, l.currency_id) AS currency_id, coalesce(c.n, 0) AS n, coalesce(c.volume, '0') AS volume,
            coalesce(l.late, 0) AS late, coalesce(l.owed, '0') AS owed
       FROM collected c FULL JOIN late l ON l.currency_id = c.currency_id`,
    args,
  );

  const currencies = stocks.map((s): CurrencyFigures => {
    const circulation = BigInt(s.circulation);
    const reserve = BigInt(reserves.find((r) => r.currency_id === s.currency_id)?.reserve ?? "0");
    const counts = people.find((p) => p.currency_id === s.currency_id);
    const mine = flows.filter((f) => f.currency_id === s.currency_id);
    const series = buckets.map(({ start }) => {
      const bucket = { start, ...emptyFlows() };
      for (const f of mine.filter((f) => f.start === start)) bucket[f.kind] = { count: f.n, volume: formatCents(BigInt(f.volume)) };
      return bucket;
    });
    return {
      currencyId: s.currency_id,
      name: s.name,
      symbol: s.symbol,
      circulation: formatCents(circulation),
      reserve: formatCents(reserve),
      coverage: circulation > 0n ? percent(reserve, circulation) : null,
      mutualCredit: s.has_cm
        ? { negative: formatCents(BigInt(s.cm_negative)), positive: formatCents(BigInt(s.cm_positive)), atFloor: s.at_floor, atCeiling: s.at_ceiling }
        : null,
      membersWithWallet: counts?.with_wallet ?? 0,
      activeMembers: counts?.active ?? 0,
      totals: total(mine),
      dues: duesOf(dues.find((d) => d.currency_id === s.currency_id)),
      series,
    };
  });
  return { from: q.from, to: q.to, interval: q.interval, asOf: asOf.toISOString(), currencies, trade: await trade(tx) };
}

/**
 * The trade balance with each active link, and each ended one still owing or owed, now: the link keeps what this side holds of the other's
 * currency, and its clearing wallets' balances are what this side owes the other. Not at the end
 * of the period: the limit is checked against what stands now, and a link has no history of its
 * `held` to read it back from. From the same snapshot as the rest, so both agree with the ledger.
 */
async function trade(tx: Tx): Promise<TradeBalance[]> {
  const { rows } = await tx.query<{
    public_id: string;
    peer_name: string | null;
    peer_currency_symbol: string | null;
    held_cents: string;
    trust_limit_cents: string;
    owed: string;
    symbol: string;
    enabled: boolean;
    peer_enabled: boolean | null;
    ended_at: Date | null;
  }>(
    `SELECT l.public_id, l.peer_name, l.peer_currency_symbol, l.held_cents::text, coalesce(l.trust_limit_cents, 0)::text AS trust_limit_cents,
       coalesce(l.enabled, false) AS enabled, l.peer_enabled, l.ended_at,
       ${OWED_ON_LINK}::text AS owed,
       (SELECT c.symbol FROM association x JOIN currencies c ON c.id = x.currency_id) AS symbol
     FROM federation_links l
     WHERE l.state = 'active' OR (l.state = 'ended' AND (l.held_cents <> 0 OR ${OWED_ON_LINK} <> 0))
     ORDER BY l.state = 'ended', l.peer_name, l.id`,
  );
  // The payments in doubt its owners ended, of either side, each with what the other side said.
  const { rows: endings } = await tx.query<{
    link: string;
    public_id: string;
    direction: "out" | "in";
    amount_cents: string | null;
    peer_amount_cents: string | null;
    ended_at: Date;
    ended_after_days: number;
    end_outcome: "agreed" | "conflict" | null;
  }>(
    `SELECT l.public_id AS link, fp.public_id, fp.direction, fp.amount_cents::text, fp.peer_amount_cents::text, fp.ended_at, fp.ended_after_days, fp.end_outcome
       FROM federation_payments fp JOIN federation_links l ON l.id = fp.link_id
      WHERE l.state IN ('active', 'ended') AND fp.ended_at IS NOT NULL
      ORDER BY fp.ended_at DESC, fp.id DESC LIMIT 200`,
  );
  const endingsOf = (link: string) =>
    endings
      .filter((e) => e.link === link)
      .map((e) => ({
        paymentId: e.public_id,
        direction: e.direction,
        amount: formatCents(BigInt(e.amount_cents ?? "0")),
        peerAmount: formatCents(BigInt(e.peer_amount_cents ?? "0")),
        at: e.ended_at.toISOString(),
        days: e.ended_after_days,
        outcome: e.end_outcome ?? ("waiting" as const),
      }));
  // The settlements of each link, proposed by either side, with where each stands.
  const settlements = await settlementsOf(tx);
  return rows.map((r) => ({
    linkId: r.public_id,
    association: r.peer_name ?? "",
    held: formatCents(BigInt(r.held_cents)),
    trustLimit: formatCents(BigInt(r.trust_limit_cents)),
    currencySymbol: r.peer_currency_symbol ?? "",
    owed: formatCents(BigInt(r.owed)),
    ownCurrencySymbol: r.symbol,
    enabled: r.enabled,
    peerEnabled: r.peer_enabled ?? false,
    endedAt: r.ended_at?.toISOString() ?? null,
    endings: endingsOf(r.public_id),
    settlements: settlements.filter((s) => s.linkId === r.public_id),
  }));
}

const duesOf = (d: { n: number; volume: string; late: number; owed: string } | undefined): CurrencyFigures["dues"] => ({
  collected: { count: d?.n ?? 0, volume: formatCents(BigInt(d?.volume ?? "0")) },
  arrears: { count: d?.late ?? 0, amount: formatCents(BigInt(d?.owed ?? "0")) },
});

/** a / b as a percentage with two decimals, rounded half away from zero, in integers only. */
export function percent(a: bigint, b: bigint): string {
  const scaled = (a * 20000n) / b; // hundredths of a percent, times two
  const rounded = (scaled + (scaled >= 0n ? 1n : -1n)) / 2n;
  return formatCents(rounded);
}

function total(rows: { kind: FlowKind; n: number; volume: string }[]): Flows {
  const out = emptyFlows();
  for (const kind of FLOW_KINDS) {
    const mine = rows.filter((r) => r.kind === kind);
    out[kind] = { count: mine.reduce((s, r) => s + r.n, 0), volume: formatCents(mine.reduce((s, r) => s + BigInt(r.volume), 0n)) };
  }
  return out;
}
