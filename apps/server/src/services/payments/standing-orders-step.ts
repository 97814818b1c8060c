import { M, addDays, occurrenceDate, standingOrderKey, type StandingOrderFrequency } from "@mutua/domain";
import { inTransaction, type Db, type Tx } from "../../db/pool";
import { postMovementTx, retriedWhenAsked } from "../ledger/ledger";
import { Refusal } from "../platform/errors";
import type { DueStep } from "../platform/due-work";
import { paymentRefusal } from "./payments";
import { orderWallets } from "./standing-orders-wallets";

/**
 * The due work of standing orders (services/platform/due-work.ts): one step claims ONE order
 * whose day has come in the association's calendar (by the database's clock), `FOR UPDATE SKIP
 * LOCKED`, and in the same transaction pays it (a custodial wallet's: the server holds it, its
 * member confirmed the order) or reminds its member (a device-signed wallet's: the server cannot
 * sign), writes the try, tells the member what needs telling, and moves the order on. Killed
 * midway, the transaction rolls back and the order is still due: paid once, no day skipped. The
 * payment's idempotency key names the order and the day, and a unique index on the tries says
 * an occurrence is paid (or reminded) once whatever this code does.
 */

interface Due {
  id: bigint;
  public_id: string;
  member_id: bigint;
  payer_wallet_id: string;
  payee_wallet_id: string;
  amount: bigint;
  memo: string;
  frequency: StandingOrderFrequency;
  start_date: string;
  end_date: string | null;
  retry_days: number;
  signed: boolean;
  occurrence: number;
  next_date: string;
  attempt: number;
}

export function standingOrdersStep(db: Db, timeZone: () => string): DueStep {
  return { name: "standing orders", step: () => retriedWhenAsked(() => inTransaction(db, (tx) => payOneDue(tx, timeZone()))) };
}

/** Pays (or reminds) one due order, in the caller's transaction; false when none is due. */
export async function payOneDue(tx: Tx, timeZone: string): Promise<boolean> {
  const { rows } = await tx.query<Due>(
    `SELECT id, public_id, member_id, payer_wallet_id, payee_wallet_id, amount, memo, frequency, start_date::text, end_date::text,
            retry_days, signed, occurrence, next_date::text, attempt
       FROM standing_orders
      WHERE state = 'active' AND due_date <= (now() AT TIME ZONE $1)::date
      ORDER BY due_date, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
    [timeZone],
  );
  const o = rows[0];
  if (!o) return false;
  if (o.signed) {
    const run = await writeRun(tx, o, "reminded", null, null, null);
    await tell(tx, o, "standing_order_due", run);
    await moveOn(tx, o);
    return true;
  }
  const refusal = await pay(tx, o);
  if (refusal === null) {
    await moveOn(tx, o);
    return true;
  }
  // Tried again the next day while the member's retries last, and before the next occurrence's day.
  const retry = addDays(o.next_date, o.attempt + 1);
  const following = occurrenceDate({ frequency: o.frequency, startDate: o.start_date, endDate: o.end_date }, o.occurrence + 1);
  const again = o.attempt < o.retry_days && (following === null || retry < following);
  const run = await writeRun(tx, o, "refused", null, refusal.msg.id, again ? retry : null);
  await tell(tx, o, "standing_order_refused", run);
  if (again) await tx.query("UPDATE standing_orders SET attempt = attempt + 1, due_date = $2, updated_at = now() WHERE id = $1", [o.id, retry]);
  else await moveOn(tx, o);
  return true;
}

/**
 * The payment, by a payment's rules: the same wallet checks as the member's own payment
 * (`paymentRefusal`), then the ledger's, which hold the floors and ceilings under its locks. Null
 * when paid; the refusal otherwise, with nothing written.
 */
async function pay(tx: Tx, o: Due): Promise<Refusal | null> {
  const { payer, payee } = await orderWallets(tx, o.payer_wallet_id, o.payee_wallet_id);
  const refusal = paymentRefusal(o.member_id, payer, payee);
  if (refusal) return refusal;
  try {
    const { movement } = await postMovementTx(tx, {
      kind: "payment",
      payerWalletId: o.payer_wallet_id,
      payeeWalletId: o.payee_wallet_id,
      parts: [{ account: "main", amount: o.amount }],
      senderMemo: o.memo,
      recipientMemo: o.memo,
      idempotencyKey: standingOrderKey(o.public_id, o.next_date),
      initiatedBy: o.member_id,
    });
    await writeRun(tx, o, "paid", movement.id, null, null);
    return null;
  } catch (e) {
    if (e instanceof Refusal) return e;
    throw e;
  }
}

async function writeRun(tx: Tx, o: Due, outcome: "paid" | "refused" | "reminded", movementId: bigint | null, reason: string | null, retryDate: string | null) {
  const { rows } = await tx.query<{ id: bigint }>(
    `INSERT INTO standing_order_runs (order_id, occurrence_date, attempt, outcome, movement_id, reason, retry_date)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [o.id, o.next_date, o.attempt, outcome, movementId, reason ?? (outcome === "refused" ? M.transferUnexpected : null), retryDate],
  );
  return rows[0]!.id;
}

/** The member hears of it in their notification centre, and by e-mail and push as they chose (the outbox's trigger). */
async function tell(tx: Tx, o: Due, kind: "standing_order_due" | "standing_order_refused", runId: bigint) {
  await tx.query("INSERT INTO member_events (member_id, kind, wallet_id, standing_order_run_id) VALUES ($1, $2, $3, $4)", [
    o.member_id,
    kind,
    o.payer_wallet_id,
    runId,
  ]);
}

/** On to the next occurrence, counted from the first date; none left (a single payment, or past the end date) ends the order. */
async function moveOn(tx: Tx, o: Due) {
  const next = occurrenceDate({ frequency: o.frequency, startDate: o.start_date, endDate: o.end_date }, o.occurrence + 1);
  if (next === null) {
    await tx.query("UPDATE standing_orders SET state = 'ended', next_date = NULL, due_date = NULL, attempt = 0, updated_at = now() WHERE id = $1", [o.id]);
    return;
  }
  await tx.query("UPDATE standing_orders SET occurrence = occurrence + 1, next_date = $2, due_date = $2, attempt = 0, updated_at = now() WHERE id = $1", [
    o.id,
    next,
  ]);
}
