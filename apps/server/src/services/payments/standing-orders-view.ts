import { formatCents, standingOrderKey, type StandingOrderFrequency, type StandingOrderOutcome, type StandingOrderState } from "@mutua/domain";
import type { StandingOrderView } from "@mutua/domain/api/schemas";
import type { z } from "zod";
import type { Queryable } from "../../db/pool";

/**
 * How a member sees their standing orders: each with its next date, its latest tries (newest
 * first) and, for a device-signed wallet, the occurrences reminded and not paid yet. Dates are
 * read as text: a `date` is a day of the association's calendar, not an instant.
 */

type View = z.infer<typeof StandingOrderView>;

/** The latest tries shown with an order. */
const RUNS_SHOWN = 12;

interface Row {
  public_id: string;
  payer_wallet_id: string;
  payee_wallet_id: string;
  payee_name: string | null;
  symbol: string;
  amount: bigint;
  memo: string;
  frequency: StandingOrderFrequency;
  start_date: string;
  end_date: string | null;
  retry_days: number;
  state: StandingOrderState;
  signed: boolean;
  next_date: string | null;
  due_date: string | null;
  created_at: Date;
  runs: { date: string; outcome: StandingOrderOutcome; attempt: number; reason: string | null; tx: string | null; at: string }[];
}

const SELECT = `
  SELECT o.public_id, o.payer_wallet_id, o.payee_wallet_id, pm.name AS payee_name, c.symbol, o.amount, o.memo, o.frequency,
         o.start_date::text, o.end_date::text, o.retry_days, o.state, o.signed, o.next_date::text, o.due_date::text, o.created_at,
         coalesce(r.runs, '[]'::json) AS runs
    FROM standing_orders o
    JOIN wallets pw ON pw.id = o.payee_wallet_id
    LEFT JOIN members pm ON pm.id = pw.member_id
    JOIN wallets w ON w.id = o.payer_wallet_id
    JOIN backends b ON b.id = w.backend_id
    JOIN currencies c ON c.id = b.currency_id
    -- The latest tries; a reminder's payment is the movement of the payer's wallet under the occurrence's key.
    LEFT JOIN LATERAL (
      SELECT json_agg(json_build_object('date', x.occurrence_date::text, 'outcome', x.outcome, 'attempt', x.attempt,
               'reason', x.reason, 'tx', coalesce(mv.public_id, kv.public_id), 'at', x.created_at) ORDER BY x.id DESC) AS runs
        FROM (SELECT * FROM standing_order_runs WHERE order_id = o.id ORDER BY id DESC LIMIT ${RUNS_SHOWN}) x
        LEFT JOIN movements mv ON mv.id = x.movement_id
        LEFT JOIN movements kv ON x.outcome = 'reminded' AND kv.payer_wallet_id = o.payer_wallet_id
             AND kv.idempotency_key = 'standing-' || o.public_id || '-' || x.occurrence_date::text
    ) r ON true`;

function view(r: Row): View {
  return {
    id: r.public_id,
    fromWalletId: r.payer_wallet_id,
    payee: { walletId: r.payee_wallet_id, name: r.payee_name ?? "" },
    currency: r.symbol,
    amount: formatCents(r.amount),
    memo: r.memo,
    frequency: r.frequency,
    startDate: r.start_date,
    endDate: r.end_date,
    retryDays: r.retry_days,
    state: r.state,
    signed: r.signed,
    nextDate: r.next_date,
    retryDate: r.due_date !== null && r.due_date !== r.next_date ? r.due_date : null,
    toPay: r.runs
      .filter((x) => x.outcome === "reminded" && x.tx === null && (r.state === "active" || r.state === "paused" || r.state === "ended"))
      .map((x) => ({ date: x.date, key: standingOrderKey(r.public_id, x.date) })),
    runs: r.runs.map((x) => ({
      date: x.date,
      outcome: x.outcome,
      attempt: x.attempt,
      reason: x.reason,
      transactionId: x.tx,
      at: new Date(x.at).toISOString(),
    })),
    createdAt: r.created_at.toISOString(),
  };
}

/** The member's orders: those still to pay first (soonest first), then ended and cancelled ones, latest first. */
export async function listStandingOrders(db: Queryable, me: bigint): Promise<View[]> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE o.member_id = $1 ORDER BY (o.next_date IS NULL), o.next_date, o.id DESC LIMIT 200`, [me]);
  return rows.map(view);
}

/** One of the member's orders; null for an order of anybody else's, or none. */
export async function readStandingOrder(db: Queryable, me: bigint, publicId: string): Promise<View | null> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE o.member_id = $1 AND o.public_id = $2`, [me, publicId]);
  return rows[0] ? view(rows[0]) : null;
}
