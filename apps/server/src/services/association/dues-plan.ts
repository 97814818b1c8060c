import { firstOnOrAfter, formatCents, parseApiAmount, rateMillionths, rateText, SM, type DuesMode, type DuesPeriod, type BodyOf } from "@mutua/domain";
import { inTransaction, type Db, type Queryable } from "../../db/pool";
import { audit } from "../platform/audit";
import { invalid } from "../platform/errors";
import { associationToday } from "./dues-zone";

/** The owners' dues as stored (dues_plan, migration 0043). */
export interface PlanRow {
  mode: DuesMode;
  period: DuesPeriod;
  first_date: string;
  member_amount: bigint | null;
  business_amount: bigint | null;
  rate_millionths: number | null;
  updated_at: Date;
}

export async function readPlan(db: Queryable): Promise<PlanRow | null> {
  const { rows } = await db.query<PlanRow>("SELECT mode, period, first_date::text, member_amount, business_amount, rate_millionths, updated_at FROM dues_plan");
  return rows[0] ?? null;
}

const planView = (p: PlanRow) => ({
  mode: p.mode,
  period: p.period,
  firstDate: p.first_date,
  memberAmount: p.member_amount === null ? null : formatCents(p.member_amount),
  businessAmount: p.business_amount === null ? null : formatCents(p.business_amount),
  rate: p.rate_millionths === null ? null : rateText(p.rate_millionths),
  updatedAt: p.updated_at.toISOString(),
});

/** Where a member enrolled today stands: the first period on or after today (none before the first date). */
export function firstPeriod(plan: PlanRow, today: string): { index: number; date: string } {
  return firstOnOrAfter(plan.first_date, plan.period, today > plan.first_date ? today : plan.first_date)!;
}

/**
 * Every member with an active wallet gets a place in the schedule (dues_members), at the first
 * period from today: a member who joins mid-period pays from the next one, never for periods
 * before they came. One statement; members already placed keep theirs.
 */
export async function enrolMembers(db: Queryable, plan: PlanRow, today: string): Promise<number> {
  const first = firstPeriod(plan, today);
  const { rowCount } = await db.query(
    `INSERT INTO dues_members (member_id, next_index, next_due)
     SELECT m.id, $1, $2::date FROM members m
      WHERE NOT EXISTS (SELECT 1 FROM dues_members d WHERE d.member_id = m.id)
        AND EXISTS (SELECT 1 FROM wallets w WHERE w.member_id = m.id AND w.role = 'member' AND w.status = 'active')
     ON CONFLICT DO NOTHING`,
    [first.index, first.date],
  );
  return rowCount ?? 0;
}

/** The owners' page: the dues set, the zone, today there and the next collection date. */
export async function duesSettings(db: Queryable, fallbackZone: string) {
  const plan = await readPlan(db);
  const zone = await associationToday(db, fallbackZone);
  const timeZone = zone?.timeZone ?? fallbackZone;
  const today = zone?.today ?? new Date().toISOString().slice(0, 10);
  const { rows } = await db.query<{ next: string | null; symbol: string | null }>(
    "SELECT (SELECT min(next_due)::text FROM dues_members) AS next, (SELECT c.symbol FROM association a JOIN currencies c ON c.id = a.currency_id) AS symbol",
  );
  return {
    plan: plan && planView(plan),
    currency: rows[0]?.symbol ?? "",
    timeZone,
    today,
    nextDue: plan ? (rows[0]?.next ?? firstPeriod(plan, today).date) : null,
  };
}

/**
 * Saves the owners' dues in one transaction, audited before and after. A first date before today
 * is refused unless it is the one already set. A new first date or period moves every member's
 * next period to the new schedule's first from today; a period already charged is never charged
 * again (dues_runs' unique member and period).
 */
export async function saveDuesSettings(db: Db, owner: bigint, body: BodyOf<"saveDuesSettings">, fallbackZone: string) {
  return inTransaction(db, async (tx) => {
    await tx.query("LOCK TABLE dues_plan IN EXCLUSIVE MODE");
    const before = await readPlan(tx);
    const zone = await associationToday(tx, fallbackZone);
    const today = zone?.today ?? new Date().toISOString().slice(0, 10);
    if (body.firstDate < today && body.firstDate !== before?.first_date) throw invalid({ firstDate: { id: SM.duesFirstDatePast } });
    const fixed = body.mode === "fixed";
    const cents = (a: string | null) => (fixed && a !== null && parseApiAmount(a)! > 0n ? parseApiAmount(a) : null);
    await tx.query(
      `INSERT INTO dues_plan (one, mode, period, first_date, member_amount, business_amount, rate_millionths, updated_by, updated_at)
       VALUES (true, $1, $2, $3, $4, $5, $6, $7, now())
       ON CONFLICT (one) DO UPDATE SET mode = $1, period = $2, first_date = $3, member_amount = $4, business_amount = $5,
         rate_millionths = $6, updated_by = $7, updated_at = now()`,
      [body.mode, body.period, body.firstDate, cents(body.memberAmount), cents(body.businessAmount), fixed ? null : rateMillionths(body.rate!), owner],
    );
    const after = (await readPlan(tx))!;
    if (before && (before.first_date !== after.first_date || before.period !== after.period)) {
      const first = firstPeriod(after, today);
      await tx.query("UPDATE dues_members SET next_index = $1, next_due = $2::date", [first.index, first.date]);
    }
    await enrolMembers(tx, after, today);
    await audit(tx, owner, "dues.plan_changed", "association", { before: before && planView(before), after: planView(after) });
    return duesSettings(tx, fallbackZone);
  });
}
