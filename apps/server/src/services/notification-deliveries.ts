import type { MemberLanguage, NotificationChannel, NotificationKind } from "@mutua/domain";
import type { Queryable } from "../db/pool";

/**
 * The outbox of notifications (migrations 0012, 0013): e-mails, and pushes to a member's devices,
 * rows written by trigger with their event, claimed by the worker of any instance
 * (services/notification-worker.ts), marked sent or failed.
 */

export interface Claimed {
  id: bigint;
  attempts: number;
}

/**
 * Claims the oldest due message: `FOR UPDATE SKIP LOCKED` lets instances claiming together take
 * different rows, and the claim itself moves `next_attempt_at` past the send (`leaseSeconds`), so
 * that no other instance takes the row while it is sent, and one whose instance died mid-send is
 * taken up again once the lease is over. The claim commits at once: see the worker for why the
 * send is not inside its transaction.
 */
export async function claimDue(db: Queryable, leaseSeconds: number, maxAttempts: number): Promise<Claimed | null> {
  const { rows } = await db.query<Claimed>(
    `WITH due AS (
       SELECT id FROM notification_deliveries
        WHERE sent_at IS NULL AND gave_up_at IS NULL AND next_attempt_at <= now() AND attempts < $2
        ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
     UPDATE notification_deliveries d SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => $1)
       FROM due WHERE d.id = due.id
     RETURNING d.id, d.attempts`,
    [leaseSeconds, maxAttempts],
  );
  return rows[0] ?? null;
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
  memo: string;
}

/** What a message must say, read when it is sent (the member's address and language as they are now). */
export async function deliveryFacts(db: Queryable, id: bigint): Promise<DeliveryFacts | null> {
  const { rows } = await db.query<Omit<DeliveryFacts, "device"> & { deviceId: bigint | null; endpoint: string; p256dh: string; auth: string }>(
    `SELECT d.channel, e.id AS "eventId", e.member_id AS "memberId",
            s.id AS "deviceId", s.endpoint, s.p256dh, s.auth,
            d.kind, mb.email, mb.first_name AS "firstName", mb.language, m.amount, c.symbol,
            c.name AS "currencyName", cm.name AS counterparty,
            coalesce(m.recipient_memo, '') AS memo
       FROM notification_deliveries d
       JOIN member_events e ON e.id = d.event_id
       JOIN members mb ON mb.id = e.member_id
       JOIN wallets w ON w.id = e.wallet_id
       JOIN backends b ON b.id = w.backend_id
       JOIN currencies c ON c.id = b.currency_id
       LEFT JOIN movements m ON m.id = e.movement_id
       LEFT JOIN wallets cw ON cw.id = CASE e.kind WHEN 'payment_received' THEN m.payer_wallet_id END
       LEFT JOIN members cm ON cm.id = cw.member_id
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
  await db.query("UPDATE notification_deliveries SET sent_at = now(), last_error = NULL WHERE id = $1", [id]);
}

/** A failed attempt: retried after `retrySeconds`, or given up when it was the last one allowed. */
export async function markFailed(db: Queryable, id: bigint, error: string, retrySeconds: number | null): Promise<void> {
  await db.query(
    `UPDATE notification_deliveries SET last_error = left($2, 500),
            next_attempt_at = CASE WHEN $3::float8 IS NULL THEN next_attempt_at ELSE now() + make_interval(secs => $3::float8) END,
            gave_up_at = CASE WHEN $3::float8 IS NULL THEN now() END
      WHERE id = $1`,
    [id, error, retrySeconds],
  );
}

/** When the next message falls due (a retry), to sleep until then. */
export async function nextDueAt(db: Queryable): Promise<Date | null> {
  const { rows } = await db.query<{ at: Date | null }>(
    "SELECT min(next_attempt_at) AS at FROM notification_deliveries WHERE sent_at IS NULL AND gave_up_at IS NULL",
  );
  return rows[0]?.at ?? null;
}
