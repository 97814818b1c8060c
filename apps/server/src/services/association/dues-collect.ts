import { randomBytes } from "node:crypto";
import { demurrageCents, nextOccurrence } from "@mutua/domain";
import { inTransaction, type Db, type Tx } from "../../db/pool";
import { postMovementTx, retriedWhenAsked } from "../ledger/ledger";
import { HELD } from "../wallets/held-wallets";
import { ensureDuesWallet, getBackend } from "../wallets/wallets";
import { writingLanguage, knownLanguage } from "../platform/language";
import { Refusal } from "../platform/errors";
import type { DueStep } from "../platform/due-work";
import { enrolMembers, readPlan, type PlanRow } from "./dues-plan";
import { duesMemo } from "./dues-words";
import { associationToday, TODAY_SQL } from "./dues-zone";

/**
 * The collection of dues, as steps of the shared due work (services/platform/due-work.ts), each in
 * a transaction of its own: a member's period is claimed (FOR UPDATE SKIP LOCKED), charged through
 * the ledger's one path (postMovementTx: its locks, floors and key) and the member's next period
 * set, all at once; so an instance killed mid-step charged nobody, and two instances never charge
 * one member's period twice. The movement's key names the member and the period, and dues_runs'
 * unique (member, period) holds it again.
 *
 * A wallet the server holds (custodial) is debited; when it lacks the money nothing is posted:
 * the period is in arrears, the member is reminded (dues_unpaid, through the notifications'
 * outbox) and it is tried again at each poll and as soon as the wallet's balance changes. A
 * device-signed wallet (ledger) cannot be debited by the server: its dues wait, in arrears, for
 * the member's one-tap payment (dues-pay.ts).
 */

export interface DuesDeps {
  db: Db;
  /** config.json's time zone, when the owners set none (the directory's). */
  timeZone: () => string;
  /** The association's default language: the memo's when the member never said theirs. */
  defaultLanguage: string;
  /** How long a failed try waits before the next: the poll interval. */
  retrySeconds: number;
}

export const duesKey = (memberId: bigint, period: string) => `dues:${memberId}:${period}`;
const newRunId = () => `du_${randomBytes(12).toString("hex")}`;

/** The steps, in order: enrolment of new members, the periods fallen due, then arrears tried again. */
export function duesSteps(deps: DuesDeps): DueStep[] {
  return [
    { name: "dues enrolment", step: () => enrolStep(deps) },
    { name: "dues", step: () => collectOne(deps) },
    { name: "dues in arrears", step: () => retryOne(deps) },
  ];
}

/** Places members new since the last pass in the schedule; finds nothing to repeat. */
async function enrolStep(deps: DuesDeps): Promise<boolean> {
  const plan = await readPlan(deps.db);
  if (!plan) return false;
  const zone = await associationToday(deps.db, deps.timeZone());
  if (zone) await enrolMembers(deps.db, plan, zone.today);
  return false;
}

interface Payer {
  id: string;
  backend_id: string;
  address: string | null;
  business: boolean;
  balance: bigint;
  language: string | null;
}

/** The wallet a member's dues are taken from: their first active one the server holds, else their first active one. */
async function payerOf(tx: Tx, memberId: bigint): Promise<Payer | null> {
  const { rows } = await tx.query<Payer>(
    `SELECT w.id, w.backend_id, w.address, m.language,
            EXISTS (SELECT 1 FROM businesses bz WHERE bz.member_id = m.id AND bz.status = 'approved') AS business,
            (SELECT coalesce(sum(a.balance), 0) FROM accounts a WHERE a.wallet_id = w.id)::bigint AS balance
       FROM wallets w JOIN backends b ON b.id = w.backend_id JOIN members m ON m.id = w.member_id
      WHERE w.member_id = $1 AND w.role = 'member' AND w.status = 'active' AND NOT ${HELD("w.id")}
      ORDER BY (b.kind = 'custodial') DESC, w.id LIMIT 1`,
    [memberId],
  );
  return rows[0] ?? null;
}

/** What a member owes for a period: the fixed amount of their kind, or the demurrage on the wallet's positive balance. */
function amountDue(plan: PlanRow, payer: Payer): bigint {
  if (plan.mode === "demurrage") return demurrageCents(payer.balance, plan.rate_millionths!);
  return (payer.business ? plan.business_amount : plan.member_amount) ?? 0n;
}

/**
 * Claims one member whose next period has come (in the association's zone, by the database's
 * clock), charges it, and moves them to the next period. True when it found one.
 */
export async function collectOne(deps: DuesDeps): Promise<boolean> {
  return retriedWhenAsked(() =>
    inTransaction(deps.db, async (tx) => {
      const { rows } = await tx.query<{ member_id: bigint; next_index: number; next_due: string }>(
        `SELECT d.member_id, d.next_index, d.next_due::text FROM dues_members d
          WHERE d.next_due <= ${TODAY_SQL(1)} AND EXISTS (SELECT 1 FROM dues_plan)
          ORDER BY d.next_due, d.member_id LIMIT 1 FOR UPDATE OF d SKIP LOCKED`,
        [deps.timeZone()],
      );
      const due = rows[0];
      if (!due) return false;
      const plan = (await readPlan(tx))!;
      const payer = await payerOf(tx, due.member_id);
      const amount = payer ? amountDue(plan, payer) : 0n;
      if (payer && amount > 0n) await charge(tx, deps, plan, due.member_id, due.next_due, payer, amount);
      const next = nextOccurrence(plan.first_date, plan.period, due.next_index)!;
      await tx.query("UPDATE dues_members SET next_index = $2, next_due = $3::date WHERE member_id = $1", [due.member_id, next.index, next.date]);
      return true;
    }),
  );
}

/** The period's row, once, then its movement when the server can take it, or the member reminded. */
async function charge(tx: Tx, deps: DuesDeps, plan: PlanRow, memberId: bigint, period: string, payer: Payer, amount: bigint): Promise<void> {
  const memo = duesMemo(period, plan.period, writingLanguage(knownLanguage(payer.language), deps.defaultLanguage));
  const { rows } = await tx.query<{ id: bigint }>(
    `INSERT INTO dues_runs (public_id, member_id, period, wallet_id, amount, memo, status, next_try)
     VALUES ($1, $2, $3::date, $4, $5, $6, 'arrears', now()) ON CONFLICT (member_id, period) DO NOTHING RETURNING id`,
    [newRunId(), memberId, period, payer.id, amount, memo],
  );
  const run = rows[0];
  // Charged before (the schedule moved back onto a date already charged): never twice.
  if (!run) return;
  if (payer.address === null && (await take(tx, deps, run.id, memberId, period, payer.id, amount, memo))) return;
  await tx.query(
    `UPDATE dues_runs SET next_try = CASE WHEN $2 THEN NULL ELSE now() + make_interval(secs => $3) END,
            tried_balance = (SELECT balance FROM accounts WHERE wallet_id = dues_runs.wallet_id AND kind = 'main')
      WHERE id = $1`,
    [run.id, payer.address !== null, deps.retrySeconds],
  );
  await tx.query("INSERT INTO member_events (member_id, kind, wallet_id, dues_run_id) VALUES ($1, 'dues_unpaid', $2, $3)", [memberId, payer.id, run.id]);
}

/**
 * Posts the period's movement from a wallet the server holds into the association's dues wallet,
 * inside the caller's transaction, and marks the run paid; false when the ledger refused it (the
 * balance, a frozen wallet), with nothing posted.
 */
async function take(tx: Tx, deps: DuesDeps, runId: bigint, memberId: bigint, period: string, walletId: string, amount: bigint, memo: string) {
  const { rows } = await tx.query<{ backend_id: string }>("SELECT backend_id FROM wallets WHERE id = $1", [walletId]);
  const backend = (await getBackend(tx, rows[0]!.backend_id))!;
  const to = await ensureDuesWallet(tx, backend);
  try {
    const { movement } = await postMovementTx(tx, {
      kind: "dues",
      payerWalletId: walletId,
      payeeWalletId: to,
      parts: [{ account: "main", amount }],
      senderMemo: memo,
      recipientMemo: memo,
      idempotencyKey: duesKey(memberId, period),
      initiatedBy: null,
    });
    await tx.query("UPDATE dues_runs SET status = 'paid', movement_id = $2, settled_at = now(), next_try = NULL WHERE id = $1", [runId, movement.id]);
    return true;
  } catch (e) {
    // The ledger's refusal (ledger_post answered, the transaction is whole): the period waits.
    if (e instanceof Refusal) return false;
    throw e;
  }
}

/**
 * Claims one unpaid period of a wallet the server holds, due for another try: its time has come,
 * or the wallet's balance changed since the last try and now covers it (money arrived). Paid, or
 * set to try again after the poll interval with the balance it saw.
 */
export async function retryOne(deps: DuesDeps): Promise<boolean> {
  return retriedWhenAsked(() =>
    inTransaction(deps.db, async (tx) => {
      const { rows } = await tx.query<{ id: bigint; member_id: bigint; period: string; wallet_id: string; amount: bigint; memo: string }>(
        `SELECT r.id, r.member_id, r.period::text, r.wallet_id, r.amount, r.memo FROM dues_runs r
          WHERE r.status = 'arrears' AND r.next_try IS NOT NULL
            AND (r.next_try <= now() OR EXISTS (
                   SELECT 1 FROM accounts a WHERE a.wallet_id = r.wallet_id AND a.kind = 'main'
                      AND a.balance - coalesce(a.floor, 0) >= r.amount AND a.balance IS DISTINCT FROM r.tried_balance))
          ORDER BY r.next_try, r.id LIMIT 1 FOR UPDATE OF r SKIP LOCKED`,
      );
      const r = rows[0];
      if (!r) return false;
      if (await take(tx, deps, r.id, r.member_id, r.period, r.wallet_id, r.amount, r.memo)) return true;
      await tx.query(
        `UPDATE dues_runs SET next_try = now() + make_interval(secs => $2),
                tried_balance = (SELECT balance FROM accounts WHERE wallet_id = dues_runs.wallet_id AND kind = 'main')
          WHERE id = $1`,
        [r.id, deps.retrySeconds],
      );
      return true;
    }),
  );
}
