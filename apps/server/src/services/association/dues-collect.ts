import { randomBytes } from "node:crypto";
import { demurrageCents, nextOccurrence } from "@mutua/domain";
import { inTransaction, type Db, type Tx } from "../../db/pool";
import { postMovementTx, retriedWhenAsked, type MovementRow } from "../ledger/ledger";
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

/** A member whose next period has come, with all a step needs, read in the claim's one statement. */
interface Due {
  member_id: bigint;
  next_index: number;
  next_due: string;
  /** The wallet dues are taken from: the member's first active one the server holds, else their first active one. */
  wallet_id: string | null;
  address: string | null;
  backend_id: string | null;
  /** The association's dues wallet of that backend, once made. */
  dues_wallet: string | null;
  business: boolean;
  balance: bigint | null;
  language: string | null;
  /** The period was charged before (a schedule moved back onto it): never twice. */
  charged: boolean;
}

/** What a member owes for a period: the fixed amount of their kind, or the demurrage on the wallet's positive balance. */
function amountDue(plan: PlanRow, due: Due): bigint {
  if (plan.mode === "demurrage") return demurrageCents(due.balance ?? 0n, plan.rate_millionths!);
  return (due.business ? plan.business_amount : plan.member_amount) ?? 0n;
}

/**
 * Claims one member whose next period has come (in the association's zone, by the database's
 * clock), charges it, and moves them to the next period. True when it found one. Few round trips
 * (the claim reads the payer's wallet with it): the step runs once per member and period.
 */
export async function collectOne(deps: DuesDeps): Promise<boolean> {
  return retriedWhenAsked(() =>
    inTransaction(deps.db, async (tx) => {
      const { rows } = await tx.query<Due>({
        name: "dues-claim",
        text: `SELECT d.member_id, d.next_index, d.next_due::text, w.id AS wallet_id, w.address, w.backend_id, dw.id AS dues_wallet, m.language,
                      EXISTS (SELECT 1 FROM businesses bz WHERE bz.member_id = d.member_id AND bz.status = 'approved') AS business,
                      (SELECT sum(a.balance) FROM accounts a WHERE a.wallet_id = w.id)::bigint AS balance,
                      EXISTS (SELECT 1 FROM dues_runs r WHERE r.member_id = d.member_id AND r.period = d.next_due) AS charged
                 FROM (SELECT * FROM dues_members WHERE next_due <= ${TODAY_SQL(1)} AND EXISTS (SELECT 1 FROM dues_plan)
                        ORDER BY next_due, member_id LIMIT 1 FOR UPDATE SKIP LOCKED) d
                 JOIN members m ON m.id = d.member_id
                 LEFT JOIN LATERAL (
                   SELECT w.id, w.address, w.backend_id FROM wallets w JOIN backends b ON b.id = w.backend_id
                    WHERE w.member_id = d.member_id AND w.role = 'member' AND w.status = 'active' AND NOT ${HELD("w.id")}
                    ORDER BY (b.kind = 'custodial') DESC, w.id LIMIT 1) w ON true
                 LEFT JOIN wallets dw ON dw.backend_id = w.backend_id AND dw.role = 'dues'`,
        values: [deps.timeZone()],
      });
      const due = rows[0];
      if (!due) return false;
      const plan = (await readPlan(tx))!;
      const amount = due.wallet_id ? amountDue(plan, due) : 0n;
      if (amount > 0n && !due.charged) await charge(tx, deps, plan, due, amount);
      const next = nextOccurrence(plan.first_date, plan.period, due.next_index)!;
      await tx.query({
        name: "dues-next",
        text: "UPDATE dues_members SET next_index = $2, next_due = $3::date WHERE member_id = $1",
        values: [due.member_id, next.index, next.date],
      });
      return true;
    }),
  );
}

/**
 * The period charged: its movement when the server holds the wallet and the ledger takes it, with
 * its row paid; else its row unpaid (in arrears) and the member reminded, nothing posted.
 */
async function charge(tx: Tx, deps: DuesDeps, plan: PlanRow, due: Due, amount: bigint): Promise<void> {
  const memo = duesMemo(due.next_due, plan.period, writingLanguage(knownLanguage(due.language), deps.defaultLanguage));
  const wallet = due.wallet_id!;
  if (due.address === null) {
    const to = due.dues_wallet ?? (await ensureDuesWallet(tx, (await getBackend(tx, due.backend_id!))!));
    const movement = await take(tx, wallet, to, due.member_id, due.next_due, amount, memo);
    if (movement) {
      await tx.query({
        name: "dues-paid",
        text: `INSERT INTO dues_runs (public_id, member_id, period, wallet_id, amount, memo, status, movement_id, settled_at)
               VALUES ($1, $2, $3::date, $4, $5, $6, 'paid', $7, now())`,
        values: [newRunId(), due.member_id, due.next_due, wallet, amount, memo, movement.id],
      });
      return;
    }
  }
  // A device-signed wallet's wait for its owner (never tried by the server); a held one's at each poll.
  await tx.query(
    `WITH run AS (
       INSERT INTO dues_runs (public_id, member_id, period, wallet_id, amount, memo, status, next_try, tried_balance)
       VALUES ($1, $2, $3::date, $4, $5, $6, 'arrears', CASE WHEN $7 THEN NULL ELSE now() + make_interval(secs => $8) END,
               (SELECT balance FROM accounts WHERE wallet_id = $4 AND kind = 'main'))
       RETURNING id)
     INSERT INTO member_events (member_id, kind, wallet_id, dues_run_id) SELECT $2, 'dues_unpaid', $4, id FROM run`,
    [newRunId(), due.member_id, due.next_due, wallet, amount, memo, due.address !== null, deps.retrySeconds],
  );
}

/**
 * Posts a period's movement from a wallet the server holds into the association's dues wallet,
 * inside the caller's transaction; null when the ledger refused it (the balance, a frozen
 * wallet), with nothing posted and the transaction whole.
 */
async function take(tx: Tx, from: string, to: string, memberId: bigint, period: string, amount: bigint, memo: string): Promise<MovementRow | null> {
  try {
    const { movement } = await postMovementTx(tx, {
      kind: "dues",
      payerWalletId: from,
      payeeWalletId: to,
      parts: [{ account: "main", amount }],
      senderMemo: memo,
      recipientMemo: memo,
      idempotencyKey: duesKey(memberId, period),
      initiatedBy: null,
    });
    return movement;
  } catch (e) {
    if (e instanceof Refusal) return null;
    throw e;
  }
}

/** The dues wallet of the backend of `walletId`: read, or made the first time. */
async function duesWalletOf(tx: Tx, walletId: string): Promise<string> {
  const { rows } = await tx.query<{ backend_id: string; dues: string | null }>(
    "SELECT w.backend_id, d.id AS dues FROM wallets w LEFT JOIN wallets d ON d.backend_id = w.backend_id AND d.role = 'dues' WHERE w.id = $1",
    [walletId],
  );
  return rows[0]!.dues ?? ensureDuesWallet(tx, (await getBackend(tx, rows[0]!.backend_id))!);
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
      const movement = await take(tx, r.wallet_id, await duesWalletOf(tx, r.wallet_id), r.member_id, r.period, r.amount, r.memo);
      if (movement) {
        await tx.query("UPDATE dues_runs SET status = 'paid', movement_id = $2, settled_at = now(), next_try = NULL WHERE id = $1", [r.id, movement.id]);
        return true;
      }
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
