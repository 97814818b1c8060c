import { ECDH } from "node:crypto";
import { M, SM } from "@mutua/domain";
import { inTransaction, type Db, type Queryable } from "../../db/pool";
import { invalid } from "../platform/errors";

/**
 * The devices a member asked to be notified on (Preferences → "Notify me on this device"): one
 * push_subscriptions row per browser subscription (migration 0013). A subscribed device gets every
 * notification kind; migration 0013's trigger queues a push for each of its member's events.
 */

/** A member's devices beyond this many push nothing: the oldest subscriptions give way. */
const MAX_DEVICES = 20;
const MAX_ENDPOINT = 2048;

/** The port every browser's push service answers Web Push on (RFC 8030 is HTTPS): no other is ever posted to. */
const PUSH_PORT = "443";

/**
 * The endpoint, if the server may POST to it: the server sends there whatever a member wrote, so
 * only `https:` URLs on the configured push services' hosts (settings.pushServiceHosts, host
 * suffixes) are accepted, never an address of the server's own network, and on port 443 only: a
 * member's choice of another port of an allowed host (`fcm.googleapis.com:81`) would be a
 * connection nobody answers, holding a sender until it gives up. A `host:port` entry allows that
 * port of that host alone (a test's own push service). Answers the URL as WHATWG serialises it
 * (ASCII, the form it is stored and looked up in); null when refused.
 */
export function allowedEndpoint(raw: string, hosts: readonly string[]): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" || url.username || url.password) return null;
  const host = url.hostname.toLowerCase();
  // WHATWG leaves the port empty when it is the scheme's own (443), however it was written.
  const port = url.port || PUSH_PORT;
  const allowed = hosts.some((entry) => {
    const [, h, p] = /^(.*?)(?::(\d+))?$/.exec(entry)!;
    return port === String(Number(p ?? PUSH_PORT)) && (host === h || host.endsWith(`.${h}`));
  });
  if (!allowed) return null;
  return url.href.length <= MAX_ENDPOINT ? url.href : null;
}

const refusedEndpoint = () => invalid({ endpoint: { id: SM.pushServiceUnsupported } });

/** The browser's keys, checked now rather than failing at every send: a P-256 point and a 16-byte secret. */
function checkKeys(keys: { p256dh: string; auth: string }): void {
  const auth = Buffer.from(keys.auth, "base64url");
  if (auth.length !== 16) throw invalid({ "keys.auth": { id: M.invalidRequest } });
  const point = Buffer.from(keys.p256dh, "base64url");
  let valid = point.length === 65 && point[0] === 4;
  try {
    // Parses the point, which fails for one not on the curve.
    if (valid) ECDH.convertKey(point, "prime256v1");
  } catch {
    valid = false;
  }
  if (!valid) throw invalid({ "keys.p256dh": { id: M.invalidRequest } });
}

/**
 * Subscribes the device (again). The endpoint is the browser's: when another member signs in on a
 * shared device and subscribes, the device is theirs from now on, and whatever was still to be
 * pushed to it for the previous member is dropped with the old row, never shown to the new one.
 */
export async function subscribePush(
  db: Db,
  memberId: bigint,
  sub: { endpoint: string; keys: { p256dh: string; auth: string } },
  hosts: readonly string[],
): Promise<void> {
  const endpoint = allowedEndpoint(sub.endpoint, hosts);
  if (!endpoint) throw refusedEndpoint();
  checkKeys(sub.keys);
  await inTransaction(db, async (tx) => {
    await tx.query("DELETE FROM push_subscriptions WHERE endpoint = $1 AND member_id <> $2", [endpoint, memberId]);
    await tx.query(
      `INSERT INTO push_subscriptions (member_id, endpoint, p256dh, auth) VALUES ($1, $2, $3, $4)
       ON CONFLICT (endpoint) DO UPDATE SET p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, subscribed_at = now()`,
      [memberId, endpoint, sub.keys.p256dh, sub.keys.auth],
    );
    await tx.query(
      `DELETE FROM push_subscriptions WHERE member_id = $1 AND id NOT IN (
         SELECT id FROM push_subscriptions WHERE member_id = $1 ORDER BY subscribed_at DESC, id DESC LIMIT $2)`,
      [memberId, MAX_DEVICES],
    );
  });
}

/** Unsubscribes the member's device; another member's endpoint, or an unknown one, is left as it is. */
export async function unsubscribePush(db: Queryable, memberId: bigint, endpoint: string): Promise<void> {
  let href: string;
  try {
    href = new URL(endpoint).href;
  } catch {
    return;
  }
  await db.query("DELETE FROM push_subscriptions WHERE endpoint = $1 AND member_id = $2", [href, memberId]);
}

/** The push service said the subscription no longer exists (404, 410): it goes, with its messages not sent. */
export async function forgetSubscription(db: Queryable, id: bigint): Promise<void> {
  await db.query("DELETE FROM push_subscriptions WHERE id = $1", [id]);
}

/**
 * A push to the device failed (its push service silent, refusing, unreachable): one more failure in
 * a row, and nothing is sent to the device for a while, doubling as a message's retries do
 * (`pauseBaseSeconds` up to `pauseMaxSeconds`), so that a dead device takes no sender from anyone
 * meanwhile. After `maxFailures` in a row it is dropped, with its messages not sent: the app hands
 * the browser's subscription to the server again when the member next opens Preferences.
 */
export async function subscriptionFailed(
  db: Queryable,
  id: bigint,
  s: { pauseBaseSeconds: number; pauseMaxSeconds: number; maxFailures: number },
): Promise<"paused" | "dropped" | "gone"> {
  const { rows } = await db.query<{ failures: number }>(
    `UPDATE push_subscriptions SET failures = failures + 1,
            paused_until = now() + make_interval(secs => least($2::float8 * 2 ^ least(failures, 30), $3::float8))
      WHERE id = $1 RETURNING failures`,
    [id, s.pauseBaseSeconds, s.pauseMaxSeconds],
  );
  const failures = rows[0]?.failures;
  if (failures === undefined) return "gone";
  if (failures < s.maxFailures) return "paused";
  await db.query("DELETE FROM push_subscriptions WHERE id = $1 AND failures >= $2", [id, s.maxFailures]);
  return "dropped";
}

/** A push to the device went through: its failures in a row, if any, are over. */
export async function subscriptionWorked(db: Queryable, id: bigint): Promise<void> {
  await db.query("UPDATE push_subscriptions SET failures = 0, paused_until = NULL WHERE id = $1 AND (failures > 0 OR paused_until IS NOT NULL)", [id]);
}
