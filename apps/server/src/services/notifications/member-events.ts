import { formatCents, SILENT_EVENT_KINDS, type EventKind, type MemberEvent, type ReconversionStatus } from "@mutua/domain";
import type { Queryable } from "../../db/pool";
import { crossPartyName, returnsHold } from "../ledger/party-name";

/**
 * A member's events (migration 0011 writes them, by trigger, in their cause's transaction): what
 * the event stream hands out, and the notification centre lists.
 *
 * The stream hands a member's events out in the order of the member's own sequence (migration
 * 0030): numbers are drawn under the member's row lock in the event's transaction, so they
 * commit in order and without gaps, and a stream past number n can never see another event
 * numbered n or less commit behind it. Nothing waits, and nobody else's transactions matter.
 */

/** Where a stream stands: past every event it handed out (`seq`), the last of which was `id`. */
export interface StreamPosition {
  seq: bigint;
  id: bigint;
}

interface Row {
  id: bigint;
  kind: EventKind;
  created_at: Date;
  wallet_id: string;
  stage: ReconversionStatus | null;
  read: boolean;
  seq: bigint;
  symbol: string;
  public_id: string | null;
  amount: bigint | null;
  has_counterparty: boolean;
  counterparty: string | null;
  request_public_id: string | null;
  offer_public_id: string | null;
  offer_title: string | null;
  standing_order: { id: string; due: boolean; reason: string | null; retryDate: string | null } | null;
  returned: boolean;
}

const SELECT = `
  SELECT e.id, e.kind, e.created_at, e.wallet_id, e.stage, e.read_at IS NOT NULL AS read, e.seq,
    c.symbol, m.public_id, coalesce(m.amount, pr.amount, dr.amount, so.amount) AS amount,
    (cw.id IS NOT NULL OR pr.id IS NOT NULL OR so.id IS NOT NULL) AS has_counterparty,
    coalesce(cm.name, ${crossPartyName("m.id", "cw")}, am.name, som.name) AS counterparty,
    pr.public_id AS request_public_id, mo.public_id AS offer_public_id, mo.title AS offer_title,
    CASE WHEN so.id IS NOT NULL THEN json_build_object('id', so.public_id, 'due', sr.outcome = 'reminded', 'reason', sr.reason,
      'retryDate', sr.retry_date::text) END AS standing_order,
    (e.kind = 'payment_received' AND ${returnsHold("m.id")}) AS returned
  FROM member_events e
  JOIN wallets w ON w.id = e.wallet_id
  JOIN backends b ON b.id = w.backend_id
  JOIN currencies c ON c.id = b.currency_id
  LEFT JOIN movements m ON m.id = e.movement_id
  LEFT JOIN wallets cw ON cw.id = CASE e.kind WHEN 'payment_received' THEN m.payer_wallet_id WHEN 'offer_paid' THEN m.payer_wallet_id WHEN 'payment_sent' THEN m.payee_wallet_id
    WHEN 'cashier_invited' THEN e.wallet_id END
  LEFT JOIN members cm ON cm.id = cw.member_id
  -- An ask for money names the other side: the asker to the asked member, the asked member to the asker.
  LEFT JOIN payment_requests pr ON pr.id = e.request_id
  LEFT JOIN members am ON am.id = CASE e.kind WHEN 'ask_declined' THEN pr.asked_member_id ELSE pr.created_by END
  -- A payment for the member's offer in the marketplace names the offer.
  LEFT JOIN market_offers mo ON mo.id = e.offer_id
  -- Unpaid dues: the period's amount.
  LEFT JOIN dues_runs dr ON dr.id = e.dues_run_id
  -- A standing order's run names the order's payee and amount.
  LEFT JOIN standing_order_runs sr ON sr.id = e.standing_order_run_id
  LEFT JOIN standing_orders so ON so.id = sr.order_id
  LEFT JOIN wallets sow ON sow.id = so.payee_wallet_id
  LEFT JOIN members som ON som.id = sow.member_id`;

function view(r: Row, associationName: string): MemberEvent {
  return {
    id: r.id.toString(),
    kind: r.kind,
    date: r.created_at.toISOString(),
    walletId: r.wallet_id,
    currency: r.symbol,
    amount: r.amount === null ? null : formatCents(r.amount),
    // A payment to or from a wallet of no member's (the association's own) names the association;
    // an invitation to run a till names the till's owner.
    counterparty: r.has_counterparty ? (r.counterparty ?? associationName) : null,
    transactionId: r.public_id,
    stage: r.stage,
    requestId: r.request_public_id,
    offer: r.offer_public_id === null ? null : { id: r.offer_public_id, title: r.offer_title ?? "" },
    standingOrder: r.standing_order,
    returned: r.returned,
    read: r.read,
  };
}

/** The position of a stream that starts now: past every event of the member's so far. */
export async function currentPosition(db: Queryable, memberId: bigint): Promise<StreamPosition> {
  const { rows } = await db.query<StreamPosition>("SELECT seq, id FROM member_events WHERE member_id = $1 ORDER BY seq DESC LIMIT 1", [memberId]);
  return rows[0] ?? { seq: 0n, id: 0n };
}

/**
 * The position just past the member's event `id`, for a stream resumed after it; null when the
 * member has no such event (an id of another member's, or of another database).
 */
export async function positionAfter(db: Queryable, memberId: bigint, id: bigint): Promise<StreamPosition | null> {
  if (id === 0n) return { seq: 0n, id: 0n };
  const { rows } = await db.query<StreamPosition>("SELECT seq, id FROM member_events WHERE member_id = $1 AND id = $2", [memberId, id]);
  return rows[0] ?? null;
}

/** The member's events past `after`, in the order the stream hands them out, a page at a time (`more` if there may be others). */
export async function eventsAfter(
  db: Queryable,
  memberId: bigint,
  after: StreamPosition,
  associationName: string,
  limit = 100,
): Promise<{ events: MemberEvent[]; position: StreamPosition; more: boolean }> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE e.member_id = $1 AND e.seq > $2 ORDER BY e.seq LIMIT $3`, [memberId, after.seq, limit]);
  const last = rows.at(-1);
  return {
    events: rows.map((r) => view(r, associationName)),
    position: last ? { seq: last.seq, id: last.id } : after,
    more: rows.length === limit,
  };
}

const NOTIFYING = `e.kind <> ALL('{${SILENT_EVENT_KINDS.join(",")}}'::text[])`;

async function unreadCount(db: Queryable, memberId: bigint): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM member_events e WHERE e.member_id = $1 AND e.read_at IS NULL AND ${NOTIFYING}`,
    [memberId],
  );
  return rows[0]!.n;
}

/** The notification centre: the member's notifications, newest first, a page at a time. */
export async function listNotifications(
  db: Queryable,
  memberId: bigint,
  q: { before?: string | undefined; limit: number },
  associationName: string,
): Promise<{ items: MemberEvent[]; next: string | null; unread: number }> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE e.member_id = $1 AND ${NOTIFYING} AND ($2::bigint IS NULL OR e.id < $2) ORDER BY e.id DESC LIMIT $3`, [
    memberId,
    q.before ?? null,
    q.limit + 1,
  ]);
  const page = rows.slice(0, q.limit);
  return {
    items: page.map((r) => view(r, associationName)),
    next: rows.length > q.limit ? page.at(-1)!.id.toString() : null,
    unread: await unreadCount(db, memberId),
  };
}

/** Marks some of the member's notifications read (ids of others' are ignored); returns the unread count. */
export async function markRead(db: Queryable, memberId: bigint, ids: readonly string[]): Promise<{ unread: number }> {
  await db.query("UPDATE member_events SET read_at = now() WHERE member_id = $1 AND id = ANY($2::bigint[]) AND read_at IS NULL", [memberId, ids]);
  return { unread: await unreadCount(db, memberId) };
}

export async function markAllRead(db: Queryable, memberId: bigint): Promise<{ unread: number }> {
  await db.query("UPDATE member_events SET read_at = now() WHERE member_id = $1 AND read_at IS NULL", [memberId]);
  return { unread: 0 };
}
