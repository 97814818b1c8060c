import type { Agent } from "node:https";
import webpush from "web-push";
import type { Settings } from "../settings";
import type { PushTarget } from "./notification-deliveries";
import type { VapidKeys } from "./vapid";

/**
 * One Web Push message, sent by the maintained `web-push` library: it encrypts the payload for the
 * device's keys (RFC 8291, aes128gcm) and signs the request with the server's VAPID key (RFC 8292).
 * The push service sees only the encrypted payload, the device's endpoint and the server's key.
 */

/** A push service silent this long is given up on (an idle socket), well within the worker's claim of 10 minutes. */
const SEND_TIMEOUT_MS = 30_000;

/** How long the push service keeps a message for a device that is off: a day, then it is stale news. */
const TTL_SECONDS = 86_400;

/** Sent, or the subscription is gone (404, 410: the browser unsubscribed or the user revoked it). */
export type PushOutcome = "sent" | "gone";

/**
 * Who runs this server, for the push service's operators: the association's mail address (a
 * mailto: URL, which Apple's service accepts whatever the host), else its public URL.
 */
export function vapidSubject(settings: Pick<Settings, "mailFrom" | "publicUrl">): string {
  const address = /<([^<>\s]+@[^<>\s]+)>/.exec(settings.mailFrom)?.[1] ?? /^\s*([^<>\s]+@[^<>\s]+)\s*$/.exec(settings.mailFrom)?.[1];
  return address ? `mailto:${address}` : settings.publicUrl;
}

export async function sendPush(
  device: PushTarget,
  payload: string,
  keys: VapidKeys,
  subject: string,
  /** A test seam: the agent of the HTTPS request (a test's self-signed push service); none in production. */
  agent?: Agent,
): Promise<PushOutcome> {
  try {
    await webpush.sendNotification({ endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } }, payload, {
      vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: TTL_SECONDS,
      urgency: "high",
      timeout: SEND_TIMEOUT_MS,
      ...(agent ? { agent } : {}),
    });
    return "sent";
  } catch (err) {
    if (err instanceof webpush.WebPushError) {
      if (err.statusCode === 404 || err.statusCode === 410) return "gone";
      throw new Error(`push service answered ${err.statusCode}${err.body ? `: ${String(err.body).slice(0, 200)}` : ""}`);
    }
    throw err;
  }
}
