import type { Agent } from "node:https";
import type { MemberLanguage } from "@mutua/domain";
import type { Db } from "../db/pool";
import type { Settings } from "../settings";
import type { EventHub } from "./event-hub";
import type { Mailer } from "./mail";
import { claimDue, deliveryFacts, giveUpAbandoned, markFailed, markSent, nextDueAt, type Claimed, type DeliveryFacts } from "./notification-deliveries";
import { notificationMail, notificationPush, writingLanguage, type PushFacts } from "./notification-mail";
import { allowedEndpoint, forgetSubscription } from "./push-subscriptions";
import { sendPush, vapidSubject } from "./push-send";
import { unsubscribeToken } from "./unsubscribe-tokens";
import { vapidKeys, type VapidKeys } from "./vapid";

/**
 * Sends the notification e-mails and pushes the outbox holds (README "Live money"). Every instance
 * runs one; all their state is in PostgreSQL, so they share the work whatever their number, and
 * one that dies leaves nothing behind that another would need.
 *
 * A message is claimed (`FOR UPDATE SKIP LOCKED`, in a statement of its own), sent, then marked
 * sent. The claim is not held in an open transaction during the send, as a plain outbox would:
 * locking a row gives a transaction an id, and the event streams hand an event out only once every
 * older transaction has ended (services/member-events.ts), so a transaction open for the length of
 * an SMTP conversation (or of a push service's answer) would hold back every member's live events
 * meanwhile. The claim pushes the row's `next_attempt_at` `LEASE_SECONDS` ahead instead: no other
 * instance takes it before then, and if this one dies mid-send the row falls due again then and is
 * sent by whoever is up. The SMTP mailer and the push request give up well within the lease
 * (services/mail.ts, push-send.ts), so a slow send is never taken up twice. A message is thus sent
 * once, or, when an instance dies between the mail or push server's "accepted" and the database's
 * "sent", twice: the unavoidable case of any outbox.
 *
 * A failed send is tried again after a backoff (`settings.notificationMail`: 30 s doubling up to an
 * hour by default), and given up after the last attempt allowed (8 by default, about an hour in all),
 * its error kept in the row. A push service answering that a device's subscription is gone (404,
 * 410) is not retried: the subscription is deleted, and its messages not sent with it. The worker
 * wakes on the events' NOTIFY (the instance's EventHub, the one LISTEN connection it already has),
 * when the next retry falls due, and every minute besides.
 */

const LEASE_SECONDS = 600;
const POLL_MS = 60_000;
const MIN_SLEEP_MS = 200;

export interface WorkerDeps {
  db: Db;
  settings: Settings;
  mailer: Mailer;
  hub: EventHub;
  /** The association's default language (config.json), for members who never said theirs. */
  defaultLanguage: string;
  /** A test seam: the HTTPS agent pushes are sent with (a test's self-signed push service); none in production. */
  pushAgent?: Agent | undefined;
  log: (level: "warn" | "error", message: string) => void;
}

/** The wait before attempt `attempts + 1`, after `attempts` failed; null when none is left. */
export function retryDelaySeconds(attempts: number, s: Settings["notificationMail"]): number | null {
  if (attempts >= s.maxAttempts) return null;
  return Math.min(s.retryBaseSeconds * 2 ** (attempts - 1), s.retryMaxSeconds);
}

export class NotificationWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private unsubscribe: (() => void) | null = null;
  /** The VAPID key as read from the database: made once, never changed, so read once (again after a failed read). */
  private vapid: Promise<VapidKeys> | null = null;

  constructor(private readonly deps: WorkerDeps) {}

  start(): void {
    this.unsubscribe = this.deps.hub.subscribeAll(() => this.wake());
    this.wake();
  }

  /** Stops taking messages and waits for the one being sent, so that it is marked before the pool closes. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  private async pass(): Promise<void> {
    const { db, settings } = this.deps;
    if (this.timer) clearTimeout(this.timer);
    let sleep = POLL_MS;
    try {
      await giveUpAbandoned(db, settings.notificationMail.maxAttempts);
      for (let c = await this.claim(); c; c = await this.claim()) await this.deliver(c);
      const next = await nextDueAt(db);
      if (next) sleep = Math.min(Math.max(next.getTime() - Date.now(), MIN_SLEEP_MS), POLL_MS);
    } catch (err) {
      // The database is away: tried again at the next wake-up or poll.
      this.deps.log("error", `notification worker: ${(err as Error).message}`);
    }
    if (this.stopped) return;
    this.timer = setTimeout(() => this.wake(), sleep);
    this.timer.unref();
  }

  private claim(): Promise<Claimed | null> {
    if (this.stopped) return Promise.resolve(null);
    return claimDue(this.deps.db, LEASE_SECONDS, this.deps.settings.notificationMail.maxAttempts);
  }

  private async deliver(c: Claimed): Promise<void> {
    const { db, settings, mailer } = this.deps;
    // Gone since it was claimed: the member switched that kind off.
    const f = await deliveryFacts(db, c.id);
    if (!f) return;
    const language: MemberLanguage = writingLanguage(f.language, this.deps.defaultLanguage);
    // What both channels say, in the member's language.
    const said: PushFacts = {
      kind: f.kind,
      language,
      amount: f.amount,
      symbol: f.symbol,
      currencyName: f.currencyName,
      counterparty: f.counterparty ?? settings.associationName,
      memo: f.memo,
    };
    if (f.channel === "push") return this.push(c, f, said);
    const token = await unsubscribeToken(db, f.memberId, f.kind);
    const mail = notificationMail(
      { ...said, to: f.email, firstName: f.firstName },
      { app: `${settings.publicUrl}/dashboard`, unsubscribe: `${settings.publicUrl}/api/unsubscribe?token=${token}` },
    );
    try {
      await mailer.send(mail);
    } catch (err) {
      // The error only: the text holds the unsubscribe link.
      return this.failed(c, err as Error);
    }
    await markSent(db, c.id);
  }

  /** A push to one device: the payload is encrypted for it alone, and says nothing of the member's e-mail. */
  private async push(c: Claimed, f: DeliveryFacts, said: PushFacts): Promise<void> {
    const { db, settings } = this.deps;
    // Migration 0013: a push row always names its device, and is deleted with it.
    const device = f.device!;
    // Subscribed when its host was allowed, no longer (PUSH_SERVICE_HOSTS changed): nothing is sent there.
    if (!allowedEndpoint(device.endpoint, settings.pushServiceHosts)) {
      await markFailed(db, c.id, "push service not allowed (PUSH_SERVICE_HOSTS)", null);
      return;
    }
    const message = notificationPush(
      said,
      // The app's notification centre, where the tapped notification is; the tag keeps one per event on the device.
      { url: "/notifications", tag: String(f.eventId) },
    );
    this.vapid ??= vapidKeys(db).catch((err: unknown) => {
      this.vapid = null;
      throw err;
    });
    const keys = await this.vapid;
    let outcome;
    try {
      outcome = await sendPush(device, JSON.stringify(message), keys, vapidSubject(settings), this.deps.pushAgent);
    } catch (err) {
      return this.failed(c, err as Error);
    }
    if (outcome === "gone") await forgetSubscription(db, device.id);
    else await markSent(db, c.id);
  }

  /** Tried again after the backoff, or given up after the last attempt allowed. */
  private async failed(c: Claimed, err: Error): Promise<void> {
    const retry = retryDelaySeconds(c.attempts, this.deps.settings.notificationMail);
    this.deps.log("warn", `notification ${c.id} not sent (attempt ${c.attempts}${retry === null ? ", giving up" : `, again in ${retry} s`}): ${err.message}`);
    await markFailed(this.deps.db, c.id, err.message, retry);
  }
}
