import { randomBytes } from "node:crypto";
import {
  ErrorCode,
  M,
  SM,
  STANDING_ORDER_MAX_LEAD_DAYS,
  addDays,
  firstOccurrenceFrom,
  memoProblem,
  occurrenceDate,
  type StandingOrderFrequency,
  type StandingOrderState,
} from "@mutua/domain";
import type { CreateStandingOrderBody, UpdateStandingOrderBody } from "@mutua/domain/api/schemas";
import type { z } from "zod";
import { inTransaction, type Db, type Queryable, type Tx } from "../../db/pool";
import type { Settings } from "../../settings";
import { Refusal, invalid, notFound } from "../platform/errors";
import { checkPasswordAgain } from "../members/credentials";
import { openPin } from "../wallets/pins";
import { paymentRefusal, sentCents } from "./payments";
import { orderWallets } from "./standing-orders-wallets";
import { readStandingOrder } from "./standing-orders-view";

/**
 * A member's standing orders (docs/architecture.md "Standing orders"): set up, changed, paused,
 * resumed and cancelled here; paid on their days by the due work (standing-orders-step.ts). Every
 * operation names an order of the member's own: anybody else's is not found.
 */

/** How many orders still to pay a member may have at once. */
export const MAX_OPEN_STANDING_ORDERS = 50;

export interface StandingOrderDeps {
  db: Db;
  settings: Settings;
  /** The association's time zone: which day it is. */
  timeZone: () => string;
  /** Something fell due now: the due work runs sooner than its next poll. */
  wake: () => void;
}

/** Today in the association's calendar, by the database's clock (the one every instance reads). */
export async function today(db: Queryable, timeZone: string): Promise<string> {
  const { rows } = await db.query<{ today: string }>("SELECT (now() AT TIME ZONE $1)::date::text AS today", [timeZone]);
  return rows[0]!.today;
}

const closed = () => new Refusal(ErrorCode.stateConflict, { id: SM.standingOrderClosed });

/**
 * Sets up an order from one of the member's wallets, by the rules of a payment they make now
 * (their own active wallet, a member's wallet of the same currency, an amount within the
 * maximum, a memo of the payment's rules). A custodial wallet's order is paid by the server
 * without them: they confirm it here, once, with their password or a PIN of this device, checked
 * and counted as those are everywhere (a wrong one is refused with the usual words).
 */
export async function createStandingOrder(deps: StandingOrderDeps, me: bigint, ip: string, body: z.infer<typeof CreateStandingOrderBody>) {
  const { db, settings } = deps;
  const amount = sentCents(body.amount);
  const memoIssue = memoProblem(body.memo);
  if (memoIssue) throw invalid({ memo: memoIssue });
  const { payer, payee } = await orderWallets(db, body.from, body.to);
  const refusal = paymentRefusal(me, payer, payee);
  if (refusal) throw refusal;
  // Paid to a member (or their shop): the association's safe takes reconversions, asked one at a time.
  if (payee!.role !== "member") throw new Refusal(ErrorCode.validation, { id: M.cannotSendToAccount });
  const now = await today(db, deps.timeZone());
  if (body.startDate < now || body.startDate > addDays(now, STANDING_ORDER_MAX_LEAD_DAYS))
    throw invalid({ startDate: { id: SM.standingOrderStart, values: { max: STANDING_ORDER_MAX_LEAD_DAYS } } });
  if (body.endDate !== null && body.endDate < body.startDate) throw invalid({ endDate: { id: SM.standingOrderEnd } });
  const signed = payer!.address !== null;
  if (!signed) {
    if (body.password !== undefined) await checkPasswordAgain(db, settings, me, ip, body.password);
    else if (body.pin) await openPin(db, settings, me, ip, body.pin.pinId, body.pin.proof);
    else throw new Refusal(ErrorCode.reauthRequired, { id: SM.standingOrderConfirm });
  }
  const publicId = `so_${randomBytes(16).toString("base64url")}`;
  await inTransaction(db, async (tx) => {
    // The member's row serialises their set-ups, so the cap holds whatever runs at once.
    await tx.query("SELECT 1 FROM members WHERE id = $1 FOR UPDATE", [me]);
    const { rows } = await tx.query<{ n: number }>("SELECT count(*)::int AS n FROM standing_orders WHERE member_id = $1 AND state IN ('active', 'paused')", [
      me,
    ]);
    if (rows[0]!.n >= MAX_OPEN_STANDING_ORDERS)
      throw new Refusal(ErrorCode.validation, { id: SM.standingOrdersTooMany, values: { max: MAX_OPEN_STANDING_ORDERS } });
    await tx.query(
      `INSERT INTO standing_orders (public_id, member_id, payer_wallet_id, payee_wallet_id, amount, memo, frequency, start_date, end_date,
                                    retry_days, signed, next_date, due_date, confirmed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $8, $8, CASE WHEN $11 THEN NULL ELSE now() END)`,
      [publicId, me, payer!.id, payee!.id, amount, body.memo, body.frequency, body.startDate, body.endDate, body.retryDays, signed],
    );
  });
  // Its first day may be today.
  deps.wake();
  return (await readStandingOrder(db, me, publicId))!;
}

interface Locked {
  id: bigint;
  state: StandingOrderState;
  frequency: StandingOrderFrequency;
  start_date: string;
  end_date: string | null;
  occurrence: number;
  next_date: string | null;
  due_date: string | null;
}

/** One of the member's orders, locked for a change; not found for anybody else's. */
async function lockOwn(tx: Tx, me: bigint, publicId: string): Promise<Locked> {
  const { rows } = await tx.query<Locked>(
    `SELECT id, state, frequency, start_date::text, end_date::text, occurrence, next_date::text, due_date::text
       FROM standing_orders WHERE public_id = $1 AND member_id = $2 FOR UPDATE`,
    [publicId, me],
  );
  if (!rows[0]) throw notFound();
  return rows[0];
}

const stillOpen = (o: Locked) => {
  if (o.state !== "active" && o.state !== "paused") throw closed();
};

/** Changes what the body names for the payments to come; an end date before the next payment ends the order. */
export async function updateStandingOrder(deps: StandingOrderDeps, me: bigint, publicId: string, body: z.infer<typeof UpdateStandingOrderBody>) {
  const amount = body.amount === undefined ? undefined : sentCents(body.amount);
  await inTransaction(deps.db, async (tx) => {
    const o = await lockOwn(tx, me, publicId);
    stillOpen(o);
    if (amount !== undefined) await tx.query("UPDATE standing_orders SET amount = $2, updated_at = now() WHERE id = $1", [o.id, amount]);
    if (body.endDate !== undefined) {
      const now = await today(tx, deps.timeZone());
      if (body.endDate !== null && (body.endDate < o.start_date || body.endDate < now)) throw invalid({ endDate: { id: SM.standingOrderEnd } });
      const next = occurrenceDate({ frequency: o.frequency, startDate: o.start_date, endDate: body.endDate }, o.occurrence);
      await tx.query(
        `UPDATE standing_orders SET end_date = $2, updated_at = now(),
                state = CASE WHEN $3 THEN 'ended' ELSE state END,
                next_date = CASE WHEN $3 THEN NULL ELSE next_date END, due_date = CASE WHEN $3 THEN NULL ELSE due_date END
          WHERE id = $1`,
        [o.id, body.endDate, next === null],
      );
    }
  });
  return (await readStandingOrder(deps.db, me, publicId))!;
}

export async function pauseStandingOrder(deps: StandingOrderDeps, me: bigint, publicId: string) {
  await inTransaction(deps.db, async (tx) => {
    const o = await lockOwn(tx, me, publicId);
    stillOpen(o);
    await tx.query("UPDATE standing_orders SET state = 'paused', updated_at = now() WHERE id = $1", [o.id]);
  });
  return (await readStandingOrder(deps.db, me, publicId))!;
}

/**
 * Pays again from the next date to come: an occurrence whose day passed while the order was
 * paused is not paid (the member held it for a reason); one still due today or later stays.
 */
export async function resumeStandingOrder(deps: StandingOrderDeps, me: bigint, publicId: string) {
  await inTransaction(deps.db, async (tx) => {
    const o = await lockOwn(tx, me, publicId);
    stillOpen(o);
    const now = await today(tx, deps.timeZone());
    if (o.due_date! >= now) {
      await tx.query("UPDATE standing_orders SET state = 'active', updated_at = now() WHERE id = $1", [o.id]);
      return;
    }
    const next = firstOccurrenceFrom({ frequency: o.frequency, startDate: o.start_date, endDate: o.end_date }, now);
    if (next === null || next.index < o.occurrence) {
      await tx.query("UPDATE standing_orders SET state = 'ended', next_date = NULL, due_date = NULL, attempt = 0, updated_at = now() WHERE id = $1", [o.id]);
      return;
    }
    await tx.query(
      "UPDATE standing_orders SET state = 'active', occurrence = $2, next_date = $3, due_date = $3, attempt = 0, updated_at = now() WHERE id = $1",
      [o.id, next.index, next.date],
    );
  });
  deps.wake();
  return (await readStandingOrder(deps.db, me, publicId))!;
}

/** Cancels an order: nothing more is paid; what it paid stays in the history. */
export async function cancelStandingOrder(deps: StandingOrderDeps, me: bigint, publicId: string) {
  await inTransaction(deps.db, async (tx) => {
    const o = await lockOwn(tx, me, publicId);
    stillOpen(o);
    await tx.query("UPDATE standing_orders SET state = 'cancelled', next_date = NULL, due_date = NULL, attempt = 0, updated_at = now() WHERE id = $1", [o.id]);
  });
  return (await readStandingOrder(deps.db, me, publicId))!;
}

/** One of the member's orders, or not found. */
export async function getStandingOrder(db: Queryable, me: bigint, publicId: string) {
  const o = await readStandingOrder(db, me, publicId);
  if (!o) throw notFound();
  return o;
}
