import type { Agent } from "node:https";
import type { MemberLanguage } from "@mutua/domain";
import { inTransaction, type Db, type Queryable } from "../../db/pool";
import type { Settings } from "../../settings";
import type { EventHub } from "./event-hub";
import type { Mailer } from "../platform/mail";
import {
  claimEmail,
  claimPush,
  deliveryFacts,
  giveUpAbandoned,
  markFailed,
  markSent,
  nextDueAt,
  type Claimed,
  type DeliveryFacts,
} from "./notification-deliveries";
import { notificationMail, notificationPage, notificationPush, type PushFacts } from "./notification-mail";
import { writingLanguage } from "../platform/language";
import { allowedEndpoint, forgetSubscription, subscriptionFailed, subscriptionWorked } from "./push-subscriptions";
import { sendPush, vapidSubject } from "./push-send";
import { unsubscribeToken } from "./unsubscribe-tokens";
import { claimInvitation, invitationMail, markInvitationFailed, markInvitationSent, nextInvitationAt, permanentMailFailure } from "../members/invitations";
import { vapidKeys, type VapidKeys } from "./vapid";

/**
 * Sends the notification e-mails and pushes the outbox holds (docs/architecture.md "Live money"). Every instance
 * runs one; all their state is in PostgreSQL, so they share the work whatever their number, and
 * one that dies leaves nothing behind that another would need.
 *
 * E-mails and pushes go in lanes of their own, each with a few senders at once
 * (`settings.notificationLanes`): a push service that never answers holds push senders only, never
 * a member's e-mail, and a slow mail server holds no push. Within the push lane a member has at
 * most `pushPerMember` pushes in flight across every instance (notification-deliveries.ts
 * claimPush), so one member's twenty devices on a silent push service hold two senders, not all of
 * them; a device whose pushes keep failing is paused, then dropped (push-subscriptions.ts). Each
 * lane takes first attempts before retries.
 *
 * A message is claimed (`FOR UPDATE SKIP LOCKED`, in a short statement or transaction of its
 * own), sent, then marked sent. The claim is not held in an open transaction during the send, as a
 * plain outbox would: locking a row gives a transaction an id, and the event streams hand an event
 * out only once every older transaction has ended (services/notifications/member-events.ts), so a transaction
 * open for the length of an SMTP conversation (or of a push service's answer) would hold back every
 * member's live events meanwhile. The claim pushes the row's `next_attempt_at` a lease ahead
 * instead: no other sender takes it before then, and if this instance dies mid-send the row falls
 * due again then and is sent by whoever is up. The SMTP mailer and the push request give up well
 * within the lease (services/platform/mail.ts, push-send.ts), so a slow send is never taken up twice. A
 * message is thus sent once, or, when an instance dies between the mail or push server's
 * "accepted" and the database's "sent", twice: the unavoidable case of any outbox.
 *
 * A failed send is tried again after a backoff (`settings.notificationMail`: 30 s doubling up to an
 * hour by default), and given up after the last attempt allowed (8 by default, about an hour in all),
 * its error kept in the row. A push service answering that a device's subscription is gone (404,
 * 410) is not retried: the subscription is deleted, and its messages not sent with it. The worker
 * wakes on the outbox's NOTIFY, sent by the transaction that queued a message (the instance's
 * EventHub, the one LISTEN connection it already has), when the next retry falls due, and every
 * minute besides.
 */

/** An e-mail's claim: the SMTP mailer gives up within a few minutes (services/platform/mail.ts). */
const EMAIL_LEASE_SECONDS = 600;
/** A push's claim: well past its send's deadline; a push held by an instance that died frees its member's turn sooner. */
const pushLeaseSeconds = (timeoutSeconds: number) => Math.max(120, 4 * timeoutSeconds);
const POLL_MS = 60_000;
const MIN_SLEEP_MS = 200;
/** Messages due but claimed by nobody here (their member's turn is taken, on another instance maybe): looked at again this soon. */
const BLOCKED_SLEEP_MS = 1_000;

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

const earliest = (a: Date | null, b: Date | null) => (a === null ? b : b === null ? a : a < b ? a : b);

/** The wait before attempt `attempts + 1`, after `attempts` failed; null when none is left. */
export function retryDelaySeconds(attempts: number, s: Settings["notificationMail"]): number | null {
  if (attempts >= s.maxAttempts) return null;
  return Math.min(s.retryBaseSeconds * 2 ** (attempts - 1), s.retryMaxSeconds);
}

/**
 * One lane's senders on this instance: up to `size` loops, each claiming and sending one message
 * after another until nothing is left to claim. A wake-up tells a loop that is claiming to look
 * once more before it stops, or, when every loop is busy sending, starts one more while there is
 * room; a loop that claimed a message starts another too (more may be due). So a burst of events
 * costs a claim or two, and a send that hangs never keeps the lane from the next message. The
 * process-local part of the worker: which sends this instance has going.
 */
class Lane {
  private active = 0;
  /** Loops between the start and the end of a claim: they will see what a wake-up announces, if told to look again. */
  private claiming = 0;
  private again = false;
  private stopped = false;
  private readonly loops = new Set<Promise<void>>();

  constructor(
    readonly name: string,
    private readonly size: number,
    private readonly claim: () => Promise<Claimed | null>,
    private readonly deliver: (c: Claimed) => Promise<void>,
    private readonly idle: () => void,
    private readonly log: WorkerDeps["log"],
  ) {}

  wake(): void {
    if (this.stopped) return;
    if (this.claiming === 0 && this.active < this.size) this.spawn();
    else this.again = true;
  }

  get busy(): boolean {
    return this.active > 0;
  }

  private spawn(): void {
    this.active++;
    const loop: Promise<void> = this.run().finally(() => {
      this.active--;
      this.loops.delete(loop);
      if (this.active === 0) this.idle();
    });
    this.loops.add(loop);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let c: Claimed | null;
      this.claiming++;
      try {
        c = await this.claim();
      } catch (err) {
        // The database is away: tried again at the next wake-up or poll.
        this.log("error", `notification worker (${this.name}): ${(err as Error).message}`);
        return;
      } finally {
        this.claiming--;
      }
      if (!c) {
        if (!this.again) return;
        this.again = false;
        continue;
      }
      if (this.active < this.size) this.spawn();
      try {
        await this.deliver(c);
      } catch (err) {
        // The database failed mid-delivery: the row's claim runs out and it is sent again then.
        this.log("error", `notification ${c.id} (${this.name}): ${(err as Error).message}`);
      }
    }
  }

  /** Stops claiming, and waits for the messages being sent, so that they are marked before the pool closes. */
  async stop(): Promise<void> {
    this.stopped = true;
    while (this.loops.size > 0) await Promise.all(this.loops);
  }
}

export class NotificationWorker {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private unsubscribe: (() => void) | null = null;
  /** The VAPID key as read from the database: made once, never changed, so read once (again after a failed read). */
  private vapid: Promise<VapidKeys> | null = null;
  private readonly lanes: Lane[];
  /** Bumped at each scheduling, so that only the newest sets the timer. */
  private scheduling = 0;

  constructor(private readonly deps: WorkerDeps) {
    const { db, settings, log } = deps;
    const { maxAttempts } = settings.notificationMail;
    const lanes = settings.notificationLanes;
    const pushLease = pushLeaseSeconds(lanes.pushTimeoutSeconds);
    // The next look is set once every lane has run out, not by each: a wake-up's three claims
    // that find nothing cost one look at when the next message is due, not three.
    const idle = () => {
      if (!this.lanes.some((l) => l.busy)) void this.schedule();
    };
    this.lanes = [
      new Lane(
        "email",
        lanes.emailSenders,
        () => claimEmail(db, EMAIL_LEASE_SECONDS, maxAttempts),
        (c) => this.deliver(c),
        idle,
        log,
      ),
      new Lane(
        "push",
        lanes.pushSenders,
        () => claimPush(db, pushLease, maxAttempts, lanes.pushPerMember),
        (c) => this.deliver(c),
        idle,
        log,
      ),
      // Imported members' invitations: one at a time, at the turns their throttle gave them.
      new Lane(
        "invitations",
        1,
        () => claimInvitation(db, EMAIL_LEASE_SECONDS, maxAttempts),
        (c) => this.invite(c),
        idle,
        log,
      ),
    ];
  }

  start(): void {
    this.unsubscribe = this.deps.hub.subscribeOutbox(() => this.wake());
    void this.tick();
  }

  /** Stops taking messages and waits for those being sent, so that they are marked before the pool closes. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    await Promise.all(this.lanes.map((l) => l.stop()));
    if (this.timer) clearTimeout(this.timer);
  }

  private wake(): void {
    if (this.stopped) return;
    for (const lane of this.lanes) lane.wake();
  }

  /** The timer's turn (and the first): rows abandoned on their last attempt are given up, then every lane looks. */
  private async tick(): Promise<void> {
    try {
      await giveUpAbandoned(this.deps.db, this.deps.settings.notificationMail.maxAttempts);
    } catch (err) {
      this.deps.log("error", `notification worker: ${(err as Error).message}`);
    }
    this.wake();
    // Nothing was claimed (the database away, say): the next look is still set.
    if (!this.lanes.some((l) => l.busy)) await this.schedule();
  }

  /** A lane ran out of messages: sleeps until the next one falls due, a minute at most. */
  private async schedule(): Promise<void> {
    if (this.stopped) return;
    const turn = ++this.scheduling;
    let sleep = POLL_MS;
    try {
      const next = earliest(await nextDueAt(this.deps.db), await nextInvitationAt(this.deps.db));
      if (next) {
        const wait = next.getTime() - Date.now();
        sleep = wait <= 0 ? BLOCKED_SLEEP_MS : Math.min(Math.max(wait, MIN_SLEEP_MS), POLL_MS);
      }
    } catch (err) {
      // The database is away: tried again at the next wake-up or poll.
      this.deps.log("error", `notification worker: ${(err as Error).message}`);
    }
    if (this.stopped || turn !== this.scheduling) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), sleep);
    this.timer.unref();
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
      counterpartySince: f.counterpartySince,
      memo: f.memo,
      offerTitle: f.offerTitle,
      standingOrder: f.standingOrder,
      returned: f.returned,
    };
    if (f.channel === "push") return this.push(c, f, said);
    const token = await unsubscribeToken(db, f.memberId, f.kind);
    const mail = notificationMail(
      { ...said, to: f.email, firstName: f.firstName },
      { app: `${settings.publicUrl}${notificationPage(f, "/dashboard")}`, unsubscribe: `${settings.publicUrl}/api/unsubscribe?token=${token}` },
    );
    try {
      await mailer.send(mail);
    } catch (err) {
      // The error only: the text holds the unsubscribe link.
      return this.failed(c, err as Error);
    }
    await markSent(db, c.id);
  }

  /** An imported member's invitation: its link is made now; an address the mail server refuses is not tried again. */
  private async invite(c: Claimed): Promise<void> {
    const { db, settings, mailer } = this.deps;
    const mail = await invitationMail(db, settings, c.id, this.deps.defaultLanguage);
    if (!mail) return;
    try {
      await mailer.send(mail);
    } catch (err) {
      const e = err as Error;
      const retry = permanentMailFailure(e) ? null : retryDelaySeconds(c.attempts, settings.notificationMail);
      this.deps.log(
        "warn",
        `invitation of member ${c.id} not sent (attempt ${c.attempts}${retry === null ? ", giving up" : `, again in ${retry} s`}): ${e.message}`,
      );
      await markInvitationFailed(db, c.id, e.message, retry);
      return;
    }
    await markInvitationSent(db, c.id);
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
      // The app's notification centre, where the tapped notification is (a standing order's: the order's
      // page, which says what happens next); the tag keeps one per event on the device.
      { url: notificationPage(f, "/notifications"), tag: String(f.eventId) },
    );
    this.vapid ??= vapidKeys(db).catch((err: unknown) => {
      this.vapid = null;
      throw err;
    });
    const keys = await this.vapid;
    let outcome;
    try {
      outcome = await sendPush(
        device,
        JSON.stringify(message),
        keys,
        vapidSubject(settings),
        settings.notificationLanes.pushTimeoutSeconds * 1000,
        this.deps.pushAgent,
      );
    } catch (err) {
      // The message's retry and the device's failure in a row are one change: nobody (another
      // worker, a test) sees the one without the other.
      const { retryBaseSeconds, retryMaxSeconds } = settings.notificationMail;
      const state = await inTransaction(db, async (tx) => {
        await this.failed(c, err as Error, tx);
        // The device is paused as the message's retry waits, and dropped after too many failures in a row.
        return subscriptionFailed(tx, device.id, {
          pauseBaseSeconds: retryBaseSeconds,
          pauseMaxSeconds: retryMaxSeconds,
          maxFailures: settings.notificationLanes.pushMaxFailures,
        });
      });
      if (state === "dropped")
        this.deps.log("warn", `push subscription ${device.id} dropped after ${settings.notificationLanes.pushMaxFailures} failures in a row`);
      return;
    }
    if (outcome === "gone") return forgetSubscription(db, device.id);
    // Sent, and the device's failures in a row over, as one change.
    await inTransaction(db, async (tx) => {
      await markSent(tx, c.id);
      await subscriptionWorked(tx, device.id);
    });
  }

  /** Tried again after the backoff, or given up after the last attempt allowed. */
  private async failed(c: Claimed, err: Error, db: Queryable = this.deps.db): Promise<void> {
    const retry = retryDelaySeconds(c.attempts, this.deps.settings.notificationMail);
    this.deps.log("warn", `notification ${c.id} not sent (attempt ${c.attempts}${retry === null ? ", giving up" : `, again in ${retry} s`}): ${err.message}`);
    await markFailed(db, c.id, err.message, retry);
  }
}
