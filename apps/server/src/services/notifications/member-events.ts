import { formatCents, SILENT_EVENT_KINDS, type EventKind, type MemberEvent, type ReconversionStatus } from "@mutua/domain";
import type { Queryable } from "../../db/pool";

/**
 * A member's events (migration 0011 writes them, by trigger, in their cause's transaction): what
 * the event stream hands out, and the notification centre lists.
 *
 * The stream hands events out in the order their transactions became visible, which is not id
 * order: ids are drawn before commit, so a transaction that drew a later id may commit first. A
 * position is therefore (writing transaction, id), and an event is handed out only once every
 * transaction older than its own has ended (its xid is below the snapshot's xmin): nothing can
 * then commit behind the position, so no event is ever skipped.
 */

/** Where a stream stands: past every event it handed out. */
export interface StreamPosition {
  xid: string;
  id: bigint;
}

interface Row {
  id: bigint;
  kind: EventKind;
  created_at: Date;
  wallet_id: string;
  stage: ReconversionStatus | null;
  read: boolean;
  xid: string;
  settled: boolean;
  symbol: string;
  public_id: string | null;
  amount: bigint | null;
  has_counterparty: boolean;
  counterparty: string | null;
}

const SELECT = `
  SELECT e.id, e.kind, e.created_at, e.wallet_id, e.stage, e.read_at IS NOT NULL AS read, e.xid::text AS xid,
    e.xid < pg_snapshot_xmin(pg_current_snapshot()) AS settled,
    c.symbol, m.public_id, m.amount, cw.id IS NOT NULL AS has_counterparty, cm.name AS counterparty
  FROM member_events e
  JOIN wallets w ON w.id = e.wallet_id
  JOIN backends b ON b.id = w.backend_id
  JOIN currencies c ON c.id = b.currency_id
  LEFT JOIN movements m ON m.id = e.movement_id
  LEFT JOIN wallets cw ON cw.id = CASE e.kind WHEN 'payment_received' THEN m.payer_wallet_id WHEN 'payment_sent' THEN m.payee_wallet_id
    WHEN 'cashier_invited' THEN e.wallet_id END
  LEFT JOIN members cm ON cm.id = cw.member_id`;

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
    read: r.read,
  };
}

/** The position of a stream that starts now: past every event of the member's so far. */
export async function currentPosition(db: Queryable, memberId: bigint): Promise<StreamPosition> {
  const { rows } = await db.query<{ xid: string; id: bigint }>(
    // Settled events only: one committed behind a transaction still running is not handed out yet, and
    // starting past it would skip what that older transaction is about to commit.
    `SELECT xid::text AS xid, id FROM member_events WHERE member_id = $1 AND xid < pg_snapshot_xmin(pg_current_snapshot())
     ORDER BY xid DESC, id DESC LIMIT 1`,
    [memberId],
  );
  return rows[0] ?? { xid: "0", id: 0n };
}

/**
 * The position just past the member's event `id`, for a stream resumed after it; null when the
 * member has no such event (an id of another member's, or of another database).
 */
export async function positionAfter(db: Queryable, memberId: bigint, id: bigint): Promise<StreamPosition | null> {
  if (id === 0n) return { xid: "0", id: 0n };
  const { rows } = await db.query<{ xid: string }>("SELECT xid::text AS xid FROM member_events WHERE member_id = $1 AND id = $2", [memberId, id]);
  return rows[0] ? { xid: rows[0].xid, id } : null;
}

/**
 * The member's events past `after`, in the order the stream hands them out, as far as it may yet
 * (`settled`), and whether more have committed that must wait for older transactions to end.
 */
export async function eventsAfter(
  db: Queryable,
  memberId: bigint,
  after: StreamPosition,
  associationName: string,
  limit = 100,
): Promise<{ events: MemberEvent[]; position: StreamPosition; waiting: boolean }> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE e.member_id = $1 AND (e.xid, e.id) > ($2::text::xid8, $3) ORDER BY e.xid, e.id LIMIT $4`, [
    memberId,
    after.xid,
    after.id,
    limit,
  ]);
  const settled: Row[] = [];
  for (const r of rows) {
    if (!r.settled) break;
    settled.push(r);
  }
  const last = settled.at(-1);
  return {
    events: settled.map((r) => view(r, associationName)),
    position: last ? { xid: last.xid, id: last.id } : after,
    waiting: settled.length < rows.length,
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
