import type { MemberLanguage, NotificationChannel, NotificationKind } from "@mutua/domain";
import { inTransaction, type Db, type Queryable } from "../../db/pool";
import { crossPartyName, returnsHold } from "../ledger/party-name";
import { memberSinceSql } from "../members/name-hints";

/**
 * The outbox of notifications (migrations 0012, 0013): e-mails, and pushes to a member's devices,
 * rows written by trigger with their event, claimed by the worker of any instance
 * (services/notifications/notification-worker.ts), marked sent or failed.
 */

export interface Claimed {
  id: bigint;
  attempts: number;
}

/**
 * The order a lane takes its due messages in: first attempts before retries, then the longest
 * due first. A message that failed has waited its backoff and may well fail again; new mail is not
 * kept behind it.
 */
const LANE_ORDER = "d.attempts > 0, d.next_attempt_at, d.id";

/** Pending: neither sent nor given up. */
const PENDING = "d.sent_at IS NULL AND d.gave_up_at IS NULL";

/**
 * Claims the first due e-mail (LANE_ORDER): `FOR UPDATE SKIP LOCKED` lets senders claiming
 * together, on this instance or others, take different rows, and the claim itself moves
 * `next_attempt_at` past the send (`leaseSeconds`), so that no other sender takes the row while it
 * is sent, and one whose instance died mid-send is taken up again once the lease is over. The
 * claim commits at once: see the worker for why the send is not inside its transaction.
 */
export async function claimEmail(db: Queryable, leaseSeconds: number, maxAttempts: number): Promise<Claimed | null> {
  const { rows } = await db.query<Claimed>(
    `WITH due AS (
       SELECT d.id FROM notification_deliveries d
        WHERE d.channel = 'email' AND ${PENDING} AND d.next_attempt_at <= now() AND d.attempts < $2
        ORDER BY ${LANE_ORDER} LIMIT 1 FOR UPDATE SKIP LOCKED)
     UPDATE notification_deliveries d SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => $1), claimed_at = now()
       FROM due WHERE d.id = due.id
     RETURNING d.id, d.attempts`,
    [leaseSeconds, maxAttempts],
  );
  return rows[0] ?? null;
}

/** The member's pushes in flight: claimed, their claim still running (a sender is on them). */
const IN_FLIGHT = `(SELECT count(*) FROM push_subscriptions fs JOIN notification_deliveries f ON f.subscription_id = fs.id
                     WHERE fs.member_id = s.member_id AND f.sent_at IS NULL AND f.gave_up_at IS NULL
                       AND f.claimed_at IS NOT NULL AND f.next_attempt_at > now())`;

/** A push that may be sent now: due, its device not paused (services/notifications/push-subscriptions.ts). */
const PUSH_DUE = `d.channel = 'push' AND ${PENDING} AND d.next_attempt_at <= now() AND d.attempts < $2
                  AND (s.paused_until IS NULL OR s.paused_until <= now())`;

/**
 * One member's pushes are the claimers' to count one at a time (pg_try_advisory_xact_lock(namespace,
 * member)): two senders counting together would both see room for one more.
 */
const MEMBER_LOCK_NAMESPACE = 0x6d_70_75_73; // "mpus"

/**
 * Claims the first due push (LANE_ORDER) of a member who has fewer than `perMember` in flight, as
 * claimEmail claims an e-mail. The count and the claim happen under the member's lock, in a
 * transaction of a few statements that ends before the send: a member whose devices never
 * answer holds at most `perMember` senders, whatever the number of their devices, instances and
 * senders, and everybody else's pushes are claimed meanwhile. A member whose lock another sender
 * holds is skipped for the next one.
 */
export async function claimPush(db: Db, leaseSeconds: number, maxAttempts: number, perMember: number): Promise<Claimed | null> {
  // The members with a push to send and room for it, in the lane's order (their first due push's).
  const { rows: members } = await db.query<{ member_id: bigint }>(
    `SELECT member_id FROM (
       SELECT DISTINCT ON (s.member_id) s.member_id, d.attempts > 0 AS retry, d.next_attempt_at, d.id
         FROM notification_deliveries d JOIN push_subscriptions s ON s.id = d.subscription_id
        WHERE ${PUSH_DUE} AND ${IN_FLIGHT} < $1
        ORDER BY s.member_id, ${LANE_ORDER}) m
      ORDER BY retry, next_attempt_at, id LIMIT 10`,
    [perMember, maxAttempts],
  );
  if (members.length === 0) return null;
  return inTransaction(db, async (tx) => {
    for (const { member_id } of members) {
      const { rows: lock } = await tx.query<{ locked: boolean }>("SELECT pg_try_advisory_xact_lock($1, ($2::bigint % 2147483648)::int) AS locked", [
        MEMBER_LOCK_NAMESPACE,
        member_id,
      ]);
      if (!lock[0]?.locked) continue;
      // Counted again under the lock, in a statement begun after it was taken: it sees every claim
      // committed by whoever held the lock before.
      const { rows } = await tx.query<Claimed>(
        `WITH due AS (
           SELECT d.id FROM notification_deliveries d JOIN push_subscriptions s ON s.id = d.subscription_id
            WHERE s.member_id = $4 AND ${PUSH_DUE} AND ${IN_FLIGHT} < $3
            ORDER BY ${LANE_ORDER} LIMIT 1 FOR UPDATE OF d SKIP LOCKED)
         UPDATE notification_deliveries d SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => $1), claimed_at = now()
           FROM due WHERE d.id = due.id
         RETURNING d.id, d.attempts`,
        [leaseSeconds, maxAttempts, perMember, member_id],
      );
      if (rows[0]) return rows[0];
    }
    return null;
  });
}

/** Rows whose last attempt allowed was claimed and never finished (its instance died): given up. */
export async function giveUpAbandoned(db: Queryable, maxAttempts: number): Promise<void> {
  await db.query(
    `UPDATE notification_deliveries SET gave_up_at = now(), last_error = coalesce(last_error, 'last attempt never finished')
      WHERE sent_at IS NULL AND gave_up_at IS NULL AND attempts >= $1 AND next_attempt_at <= now()`,
    [maxAttempts],
  );
}

/** The device a push goes to (push_subscriptions). */
export interface PushTarget {
  id: bigint;
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface DeliveryFacts {
  channel: NotificationChannel;
  eventId: bigint;
  memberId: bigint;
  /** For a push: its device. */
  device: PushTarget | null;
  kind: NotificationKind;
  email: string;
  firstName: string;
  language: MemberLanguage | null;
  amount: bigint | null;
  symbol: string;
  currencyName: string;
  /** The payer of money received: a member's name; null for the association's own wallets and other kinds. */
  counterparty: string | null;
  /** When the payer joined, when another member's name looks like theirs (services/members/name-hints.ts). */
  counterpartySince: string | null;
  memo: string;
  /** The marketplace's offer paid for (offer_paid): its title. */
  offerTitle: string | null;
  /** A standing order's run (standing_order): refused (with its reason, a msgid, and its next try) or a reminder to pay. */
  standingOrder: StandingOrderFacts | null;
  /** Money received that is the member's own, given back: a payment across the other side did not make (member-events.ts). */
  returned: boolean;
}

export interface StandingOrderFacts {
  /** The order's public id: the notification opens its page in the app. */
  id: string;
  /** A reminder to pay (a device-signed wallet's), else a refused payment. */
  due: boolean;
  /** The occurrence's day. */
  date: string;
  /** Why it was refused: a msgid. */
  reason: string | null;
  /** When it is tried again; null: given up. */
  retryDate: string | null;
}

/** What a message must say, read when it is sent (the member's address and language as they are now). */
export async function deliveryFacts(db: Queryable, id: bigint): Promise<DeliveryFacts | null> {
  const { rows } = await db.query<Omit<DeliveryFacts, "device"> & { deviceId: bigint | null; endpoint: string; p256dh: string; auth: string }>(
    `SELECT d.channel, e.id AS "eventId", e.member_id AS "memberId",
            s.id AS "deviceId", s.endpoint, s.p256dh, s.auth,
            d.kind, mb.email, mb.first_name AS "firstName", mb.language, coalesce(m.amount, pr.amount, dr.amount, so.amount) AS amount, c.symbol,
            c.name AS "currencyName", coalesce(cm.name, ${crossPartyName("m.id", "cw")}, som.name) AS counterparty, ${memberSinceSql("cm")} AS "counterpartySince",
            coalesce(m.recipient_memo, pr.sender_memo, dr.memo, so.memo, '') AS memo, mo.title AS "offerTitle",
            CASE WHEN sr.id IS NOT NULL THEN json_build_object('id', so.public_id, 'due', sr.outcome = 'reminded', 'date', sr.occurrence_date::text,
              'reason', sr.reason, 'retryDate', sr.retry_date::text) END AS "standingOrder",
            (e.kind = 'payment_received' AND ${returnsHold("m.id")}) AS returned
       FROM notification_deliveries d
       JOIN member_events e ON e.id = d.event_id
       JOIN members mb ON mb.id = e.member_id
       JOIN wallets w ON w.id = e.wallet_id
       JOIN backends b ON b.id = w.backend_id
       JOIN currencies c ON c.id = b.currency_id
       LEFT JOIN movements m ON m.id = e.movement_id
       LEFT JOIN wallets cw ON cw.id = CASE WHEN e.kind IN ('payment_received', 'offer_paid') THEN m.payer_wallet_id END
       -- Who asks for money: the ask's maker.
       LEFT JOIN payment_requests pr ON pr.id = e.request_id
       LEFT JOIN members cm ON cm.id = coalesce(cw.member_id, pr.created_by)
       LEFT JOIN market_offers mo ON mo.id = e.offer_id
       -- Unpaid dues: the period's amount and its words ("Dues · December 2026").
       LEFT JOIN dues_runs dr ON dr.id = e.dues_run_id
       -- A standing order's run: the order's amount and memo, and its payee (a member, or a shop's owner).
       LEFT JOIN standing_order_runs sr ON sr.id = e.standing_order_run_id
       LEFT JOIN standing_orders so ON so.id = sr.order_id
       LEFT JOIN wallets sow ON sow.id = so.payee_wallet_id
       LEFT JOIN members som ON som.id = sow.member_id
       LEFT JOIN push_subscriptions s ON s.id = d.subscription_id
      WHERE d.id = $1`,
    [id],
  );
  const r = rows[0];
  if (!r) return null;
  const { deviceId, endpoint, p256dh, auth, ...facts } = r;
  return { ...facts, device: deviceId === null ? null : { id: deviceId, endpoint, p256dh, auth } };
}

export async function markSent(db: Queryable, id: bigint): Promise<void> {
  await db.query("UPDATE notification_deliveries SET sent_at = now(), last_error = NULL, claimed_at = NULL WHERE id = $1", [id]);
}

/** A failed attempt: retried after `retrySeconds`, or given up when it was the last one allowed. */
export async function markFailed(db: Queryable, id: bigint, error: string, retrySeconds: number | null): Promise<void> {
  await db.query(
    `UPDATE notification_deliveries SET last_error = left($2, 500), claimed_at = NULL,
            next_attempt_at = CASE WHEN $3::float8 IS NULL THEN next_attempt_at ELSE now() + make_interval(secs => $3::float8) END,
            gave_up_at = CASE WHEN $3::float8 IS NULL THEN now() END
      WHERE id = $1`,
    [id, error, retrySeconds],
  );
}

/** When the next message falls due (a retry, or a push to a device paused until then), to sleep until then. */
export async function nextDueAt(db: Queryable): Promise<Date | null> {
  const { rows } = await db.query<{ at: Date | null }>(
    `SELECT min(greatest(d.next_attempt_at, s.paused_until)) AS at
       FROM notification_deliveries d LEFT JOIN push_subscriptions s ON s.id = d.subscription_id WHERE ${PENDING}`,
  );
  return rows[0]?.at ?? null;
}
