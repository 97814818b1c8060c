import { randomBytes } from "node:crypto";
import {
  ErrorCode,
  LIMITS,
  M,
  MAX_AMOUNT_CENTS,
  MAX_AMOUNT_TEXT,
  SM,
  formatCents,
  memoProblem,
  parseApiAmount,
  type AskGroup,
  type AskList,
  type MoneyAsk,
  type PaymentRequestStatus,
} from "@mutua/domain";
import { inTransaction, type Db, type Queryable } from "../../db/pool";
import type { Settings } from "../../settings";
import { Refusal, invalid, notFound } from "../platform/errors";
import { hit } from "../platform/rate-limit";
import { requestNotFound } from "./payment-requests";

/**
 * Asking members for money, as friends do after a dinner: one payment request made of each asked
 * member (migration 0031), into one of the asker's wallets. Only the asked member may pay it (a
 * `transfer` naming its id, which marks it paid in the payment's transaction, as a till's
 * request) or decline it; the asker may withdraw it (cancelPaymentRequest). The database tells
 * each side by an event written in the same transaction: the asked member when asked (and, by
 * their preferences, by e-mail and push), the asker when declined; the payment itself tells the
 * asker it was paid.
 */

/** The asks of a member's own latest, and of the ones they have to answer, that the list shows. */
const LIST_LIMIT = 20;
/** How long the asker's list keeps an ask everybody answered: long enough to see how it ended. */
const ANSWERED_KEPT_DAYS = 3;

interface Row {
  public_id: string;
  ask_id: string;
  wallet_id: string;
  amount: bigint;
  recipient_memo: string;
  status: PaymentRequestStatus;
  lapsed: boolean;
  created_at: Date;
  expires_at: Date;
  closed_at: Date | null;
  asker_id: bigint;
  asker_name: string;
  asked_id: bigint;
  asked_name: string;
  symbol: string;
}

const SELECT = `
  SELECT r.public_id, r.ask_id, r.wallet_id, r.amount, r.recipient_memo, r.status, r.created_at, r.expires_at,
    coalesce(r.paid_at, r.closed_at) AS closed_at,
    (r.status = 'open' AND r.expires_at <= now()) AS lapsed,
    asker.id AS asker_id, asker.name AS asker_name, asked.id AS asked_id, asked.name AS asked_name, c.symbol
  FROM payment_requests r
  JOIN members asker ON asker.id = r.created_by
  JOIN members asked ON asked.id = r.asked_member_id
  JOIN wallets w ON w.id = r.wallet_id
  JOIN backends b ON b.id = w.backend_id
  JOIN currencies c ON c.id = b.currency_id`;

function view(r: Row): MoneyAsk {
  return {
    requestId: r.public_id,
    walletId: r.wallet_id,
    asker: { memberId: Number(r.asker_id), name: r.asker_name },
    asked: { memberId: Number(r.asked_id), name: r.asked_name },
    amount: formatCents(r.amount),
    currency: r.symbol,
    memo: r.recipient_memo,
    status: r.lapsed ? "expired" : r.status,
    createdAt: r.created_at.toISOString(),
    expiresAt: r.expires_at.toISOString(),
    closedAt: r.closed_at?.toISOString() ?? null,
  };
}

function groups(rows: Row[]): AskGroup[] {
  const byId = new Map<string, Row[]>();
  for (const r of rows) byId.set(r.ask_id, [...(byId.get(r.ask_id) ?? []), r]);
  return [...byId.entries()].map(([id, parts]) => ({
    id,
    memo: parts[0]!.recipient_memo,
    currency: parts[0]!.symbol,
    total: formatCents(parts.reduce((sum, p) => sum + p.amount, 0n)),
    createdAt: parts[0]!.created_at.toISOString(),
    parts: parts.map(view),
  }));
}

/**
 * Asks each member of `parts` for their amount, into the asker's wallet (the route checked it is
 * theirs). All or none: one member who cannot be asked refuses the whole ask, naming them.
 */
export async function askMoney(
  db: Db,
  s: Settings,
  me: bigint,
  input: { walletId: string; memo: string; parts: { memberId: number; amount: string }[] },
): Promise<AskGroup> {
  await hit(db, `payment-request:member:${me}`, s.limits.paymentRequestPerMember);
  const memo = input.memo.trim();
  const problem = memoProblem(memo);
  if (problem) throw invalid({ memo: problem });
  const parts = input.parts.map((p, i) => {
    const cents = parseApiAmount(p.amount);
    if (cents === null || cents <= 0n) throw invalid({ [`parts.${i}.amount`]: { id: M.amountRequestNotPositive } });
    if (cents > MAX_AMOUNT_CENTS) throw invalid({ [`parts.${i}.amount`]: { id: M.amountTooLarge, values: { maxValue: MAX_AMOUNT_TEXT } } });
    if (BigInt(p.memberId) === me) throw invalid({ [`parts.${i}.memberId`]: { id: SM.askSelf } });
    return { memberId: BigInt(p.memberId), cents };
  });
  if (new Set(parts.map((p) => p.memberId)).size !== parts.length) throw invalid({ parts: { id: SM.askTwice } });

  const { rows: wallets } = await db.query<{ status: string; backend_id: string }>(
    "SELECT status, backend_id FROM wallets WHERE id = $1 AND member_id = $2 AND role = 'member'",
    [input.walletId, me],
  );
  const wallet = wallets[0];
  if (!wallet) throw notFound();
  if (wallet.status !== "active") throw new Refusal(ErrorCode.inactiveAccount, { id: M.targetInactive });
  // Whoever is asked must be able to pay: a member with an open account of the same currency.
  const { rows: asked } = await db.query<{ id: bigint; name: string; can_pay: boolean }>(
    `SELECT m.id, m.name, EXISTS (SELECT 1 FROM wallets w WHERE w.member_id = m.id AND w.backend_id = $2 AND w.role = 'member' AND w.status = 'active') AS can_pay
       FROM members m WHERE m.id = ANY($1::bigint[])`,
    [parts.map((p) => p.memberId), wallet.backend_id],
  );
  for (const [i, p] of parts.entries()) {
    const member = asked.find((a) => a.id === p.memberId);
    if (!member) throw invalid({ [`parts.${i}.memberId`]: { id: M.notFound } });
    if (!member.can_pay) throw invalid({ [`parts.${i}.memberId`]: { id: SM.askNoAccount, values: { name: member.name } } });
  }

  const askId = `ask_${randomBytes(16).toString("base64url")}`;
  await inTransaction(db, async (tx) => {
    // In member order: each insert writes the asked member's event under their stream's lock, and
    // two asks naming the same members must take those locks in one order.
    for (const p of [...parts].sort((a, b) => (a.memberId < b.memberId ? -1 : 1))) {
      await tx.query(
        `INSERT INTO payment_requests (public_id, wallet_id, amount, sender_memo, recipient_memo, expires_at, created_by, asked_member_id, ask_id)
         VALUES ($1, $2, $3, $4, $4, now() + make_interval(days => $5), $6, $7, $8)`,
        [`pr_${randomBytes(16).toString("base64url")}`, input.walletId, p.cents, memo, LIMITS.askDays, me, p.memberId, askId],
      );
    }
  });
  const { rows } = await db.query<Row>(`${SELECT} WHERE r.ask_id = $1 ORDER BY asked.name, r.id`, [askId]);
  return groups(rows)[0]!;
}

/**
 * The asks the member has to answer (open ones first, then the latest answered), and their own
 * asks still waiting for somebody or answered lately.
 */
export async function listAsks(db: Queryable, me: bigint): Promise<AskList> {
  const [ofMe, byMe] = await Promise.all([
    db.query<Row>(
      `${SELECT} WHERE r.asked_member_id = $1
        ORDER BY (r.status = 'open' AND r.expires_at > now()) DESC, r.created_at DESC, r.id DESC LIMIT $2`,
      [me, LIST_LIMIT],
    ),
    db.query<Row>(
      `${SELECT} WHERE r.ask_id IN (
          SELECT ask_id FROM payment_requests WHERE created_by = $1 AND ask_id IS NOT NULL
           GROUP BY ask_id
          HAVING bool_or(status = 'open' AND expires_at > now()) OR max(coalesce(paid_at, closed_at, created_at)) > now() - make_interval(days => $3)
           ORDER BY max(created_at) DESC LIMIT $2)
        ORDER BY r.created_at DESC, r.ask_id, asked.name, r.id`,
      [me, LIST_LIMIT, ANSWERED_KEPT_DAYS],
    ),
  ]);
  return { ofMe: ofMe.rows.map(view), byMe: groups(byMe.rows) };
}

/**
 * The asked member says no. Only theirs: to anybody else it does not exist. A paid ask stays paid
 * (the money moved); one no longer open is answered as it is, so a repeated decline does no harm.
 */
export async function declineAsk(db: Queryable, me: bigint, publicId: string): Promise<MoneyAsk> {
  // The UPDATE re-checks status and expiry itself: a payment committing meanwhile wins.
  await db.query(
    "UPDATE payment_requests SET status = 'declined', closed_at = now() WHERE public_id = $1 AND asked_member_id = $2 AND status = 'open' AND expires_at > now()",
    [publicId, me],
  );
  const { rows } = await db.query<Row>(`${SELECT} WHERE r.public_id = $1 AND r.asked_member_id = $2`, [publicId, me]);
  if (!rows[0]) throw requestNotFound();
  const ask = view(rows[0]);
  if (ask.status === "paid") throw new Refusal(ErrorCode.stateConflict, { id: SM.paymentRequestPaid });
  return ask;
}
