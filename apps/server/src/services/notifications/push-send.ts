import https, { type Agent } from "node:https";
import webpush from "web-push";
import type { Settings } from "../../settings";
import type { PushTarget } from "./notification-deliveries";
import type { VapidKeys } from "./vapid";

/**
 * One Web Push message, made by the maintained `web-push` library: it encrypts the payload for the
 * device's keys (RFC 8291, aes128gcm) and signs the request with the server's VAPID key (RFC 8292).
 * The push service sees only the encrypted payload, the device's endpoint and the server's key.
 */

/** How long the push service keeps a message for a device that is off: a day, then it is stale news. */
const TTL_SECONDS = 86_400;

/** What is read of a push service's answer to an error: enough for the log, never a flood kept in memory. */
const MAX_ANSWER = 2_000;

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

/**
 * Sends the message, and gives up `timeoutMs` after it started whatever the push service does:
 * a deadline on the whole exchange (connection, TLS, answer), not only on a silent socket, so that
 * a push service answering a byte at a time holds a sender no longer than one that never answers.
 * The request itself is `web-push`'s (its encryption, headers and VAPID signature); only the
 * sending is done here, for that deadline.
 */
export async function sendPush(
  device: PushTarget,
  payload: string,
  keys: VapidKeys,
  subject: string,
  timeoutMs: number,
  /** A test seam: the agent of the HTTPS request (a test's self-signed push service); none in production. */
  agent?: Agent,
): Promise<PushOutcome> {
  const request = webpush.generateRequestDetails({ endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } }, payload, {
    vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
    TTL: TTL_SECONDS,
    urgency: "high",
  });
  const { status, answer } = await new Promise<{ status: number; answer: string }>((resolve, reject) => {
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const settle = (fn: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      fn();
    };
    const req = https.request(request.endpoint, { method: request.method, headers: request.headers, ...(agent ? { agent } : {}) }, (res) => {
      let answer = "";
      res.on("data", (chunk: Buffer) => {
        if (answer.length < MAX_ANSWER) answer += chunk.toString("utf8", 0, MAX_ANSWER - answer.length);
      });
      res.on("end", () => settle(() => resolve({ status: res.statusCode ?? 0, answer })));
      res.on("error", (err) => settle(() => reject(err)));
    });
    timer = setTimeout(() => {
      settle(() => reject(new Error(`push service silent for ${timeoutMs / 1000} s`)));
      req.destroy();
    }, timeoutMs);
    req.on("error", (err) => settle(() => reject(err)));
    req.end(request.body ?? undefined);
  });
  if (status >= 200 && status <= 299) return "sent";
  if (status === 404 || status === 410) return "gone";
  throw new Error(`push service answered ${status}${answer ? `: ${answer.slice(0, 200)}` : ""}`);
}
