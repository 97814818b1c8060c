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
  type BlockedAsker,
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
 *
 * Asking reaches into another member's bell, so it is bounded as the directory is: a member can be
 * asked only by those who could find them there (an open account in the ask's backend), and not by
 * those they stopped (ask_blocks, migration 0039); both are refused in the same words, without a
 * name, and each member named counts as a search in the asker's directory budget, so nobody walks
 * the members by id through asks. Open asks are capped per asker on one member and per asked
 * member from everybody; asks that ended unpaid are swept after ASK_KEPT_DAYS.
 */

/** The asks of a member's own latest, and of the ones they have to answer, that the list shows. */
const LIST_LIMIT = 20;
/** How long the asker's list keeps an ask everybody answered: long enough to see how it ended. */
const ANSWERED_KEPT_DAYS = 3;
/** How long an ask that ended unpaid (declined, withdrawn, expired) is kept, with the events that told of it. */
export const ASK_KEPT_DAYS = 30;

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
  // Each member named is a look-up in the directory, and counts as one.
  await hit(db, `search:member:${me}`, s.limits.searchPerMember, input.parts.length);
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
  // Whoever is asked must be one the asker could find in the directory, so able to pay: a member
  // with an open account in the wallet's backend, who did not stop the asker. Anybody else cannot
  // be asked, in the same words whoever they are, and unnamed: an id is no way to learn a name.
  const { rows: askable } = await db.query<{ id: bigint; name: string }>(
    `SELECT m.id, m.name FROM members m
      WHERE m.id = ANY($1::bigint[])
        AND EXISTS (SELECT 1 FROM wallets w WHERE w.member_id = m.id AND w.backend_id = $2 AND w.role = 'member' AND w.status = 'active')
        AND NOT EXISTS (SELECT 1 FROM ask_blocks k WHERE k.member_id = m.id AND k.blocked_id = $3)`,
    [parts.map((p) => p.memberId), wallet.backend_id, me],
  );
  const nameOf = new Map(askable.map((a) => [a.id, a.name]));
  for (const [i, p] of parts.entries()) if (!nameOf.has(p.memberId)) throw invalid({ [`parts.${i}.memberId`]: { id: SM.askCannot } });

  const askId = `ask_${randomBytes(16).toString("base64url")}`;
  await inTransaction(db, async (tx) => {
    // In member order: each insert writes the asked member's event under their stream's lock, and
    // two asks naming the same members must take those locks in one order. The open asks waiting
    // on a member are counted under a lock of theirs, so two asks at once cannot both take the last place.
    for (const p of [...parts].sort((a, b) => (a.memberId < b.memberId ? -1 : 1))) {
      await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('mutua:asks-of:' || $1::text, 0))", [p.memberId]);
      const { rows: open } = await tx.query<{ all: number; mine: number }>(
        `SELECT count(*)::int AS all, (count(*) FILTER (WHERE created_by = $2))::int AS mine FROM payment_requests
          WHERE asked_member_id = $1 AND status = 'open' AND expires_at > now()`,
        [p.memberId, me],
      );
      const name = nameOf.get(p.memberId)!;
      const i = parts.indexOf(p);
      if (open[0]!.mine >= LIMITS.askOpenPerPair)
        throw invalid({ [`parts.${i}.memberId`]: { id: SM.askPairFull, values: { name, max: LIMITS.askOpenPerPair } } });
      if (open[0]!.all >= LIMITS.askOpenPerMember) throw invalid({ [`parts.${i}.memberId`]: { id: SM.askMemberFull, values: { name } } });
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
 * With `stopAsker`, the asker is also stopped from asking again, as blockAsker does.
 */
export async function declineAsk(db: Db, me: bigint, publicId: string, opts: { stopAsker?: boolean } = {}): Promise<MoneyAsk> {
  // The UPDATE re-checks status and expiry itself: a payment committing meanwhile wins.
  await db.query(
    "UPDATE payment_requests SET status = 'declined', closed_at = now() WHERE public_id = $1 AND asked_member_id = $2 AND status = 'open' AND expires_at > now()",
    [publicId, me],
  );
  const { rows } = await db.query<Row>(`${SELECT} WHERE r.public_id = $1 AND r.asked_member_id = $2`, [publicId, me]);
  if (!rows[0]) throw requestNotFound();
  const ask = view(rows[0]);
  if (ask.status === "paid") throw new Refusal(ErrorCode.stateConflict, { id: SM.paymentRequestPaid });
  if (opts.stopAsker) await blockAsker(db, me, rows[0].asker_id);
  return ask;
}

/** The members `me` stopped from asking them for money, latest first. */
export async function listBlockedAskers(db: Queryable, me: bigint): Promise<BlockedAsker[]> {
  const { rows } = await db.query<{ id: bigint; name: string; created_at: Date }>(
    `SELECT m.id, m.name, k.created_at FROM ask_blocks k JOIN members m ON m.id = k.blocked_id
      WHERE k.member_id = $1 ORDER BY k.created_at DESC, m.id`,
    [me],
  );
  return rows.map((r) => ({ memberId: Number(r.id), name: r.name, since: r.created_at.toISOString() }));
}

/**
 * Stops a member from asking `me` for money, and declines their asks still open (the asker is told
 * of each refusal, as of any). Only a member who asked `me` can be stopped: anybody else is
 * answered alike, unnamed, so blocking is no way to learn a name. Stopping twice does no harm.
 */
export async function blockAsker(db: Db, me: bigint, other: bigint): Promise<BlockedAsker & { declined: number }> {
  return inTransaction(db, async (tx) => {
    const { rows: asker } = await tx.query<{ name: string }>(
      `SELECT m.name FROM members m
        WHERE m.id = $2 AND EXISTS (SELECT 1 FROM payment_requests r WHERE r.created_by = m.id AND r.asked_member_id = $1)`,
      [me, other],
    );
    if (!asker[0]) throw invalid({ memberId: { id: SM.askNotBlockable } });
    const { rows: block } = await tx.query<{ created_at: Date }>(
      `INSERT INTO ask_blocks (member_id, blocked_id) VALUES ($1, $2)
       ON CONFLICT (member_id, blocked_id) DO UPDATE SET created_at = ask_blocks.created_at RETURNING created_at`,
      [me, other],
    );
    const { rowCount } = await tx.query(
      `UPDATE payment_requests SET status = 'declined', closed_at = now()
        WHERE asked_member_id = $1 AND created_by = $2 AND status = 'open' AND expires_at > now()`,
      [me, other],
    );
    return { memberId: Number(other), name: asker[0].name, since: block[0]!.created_at.toISOString(), declined: rowCount ?? 0 };
  });
}

/** Lets a stopped member ask `me` again; one never stopped is left as they are. */
export async function unblockAsker(db: Queryable, me: bigint, other: bigint): Promise<{ ok: true }> {
  await db.query("DELETE FROM ask_blocks WHERE member_id = $1 AND blocked_id = $2", [me, other]);
  return { ok: true };
}

/**
 * Deletes the asks that ended unpaid (declined, withdrawn, expired) over ASK_KEPT_DAYS ago, with
 * the events that told of them and those events' deliveries. A paid ask stays: its payment names it.
 */
export async function sweepAsks(db: Db): Promise<number> {
  return inTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ id: bigint }>(
      `SELECT id FROM payment_requests
        WHERE ask_id IS NOT NULL AND status <> 'paid'
          AND coalesce(closed_at, expires_at) < now() - make_interval(days => $1)
        ORDER BY id LIMIT 1000 FOR UPDATE SKIP LOCKED`,
      [ASK_KEPT_DAYS],
    );
    if (rows.length === 0) return 0;
    const ids = rows.map((r) => r.id);
    await tx.query("DELETE FROM notification_deliveries WHERE event_id IN (SELECT id FROM member_events WHERE request_id = ANY($1::bigint[]))", [ids]);
    await tx.query("DELETE FROM member_events WHERE request_id = ANY($1::bigint[])", [ids]);
    const { rowCount } = await tx.query("DELETE FROM payment_requests WHERE id = ANY($1::bigint[])", [ids]);
    return rowCount ?? 0;
  });
}
