import pg from "pg";
import type { Db } from "../../db/pool";
import { OUTBOX_CHANNEL } from "../platform/mail";

/** The channel migration 0011's trigger notifies, with the member's id, when it writes an event. */
export const EVENTS_CHANNEL = "mutua_member_events";
/**
 * The channel notified, with the member's id, when a session of theirs ends early (migration 0020's
 * trigger) or a stream of theirs is closed as the oldest beyond the caps (services/notifications/event-streams.ts).
 */
export const STREAMS_CHANNEL = "mutua_member_streams";
/** The channel notified when the association's row changes (migration 0027's trigger). */
export const ASSOCIATION_CHANNEL = "mutua_association";

type Wake = () => void;

/** What an instance's streams of one member hear. */
export interface MemberListener {
  /** The member may have new events. */
  wake(): void;
  /** A session of the member's may have ended, or a stream been closed: each stream must look. */
  recheck(): void;
}

/**
 * One instance's ear on the database: a single connection LISTENs for members' new events (PostgreSQL
 * is the bus between instances: a payment posted through any instance reaches streams open on all of
 * them) and wakes the streams of that member open here; it hears likewise of a member's session
 * ended or stream closed on another instance. A wake-up says only "look": streams read what is new
 * (services/notifications/member-events.ts) and check their sessions themselves, so a notification lost while the
 * connection was down costs nothing: every stream is woken, and looks again, when it is back.
 *
 * Only the open connections of this process live here, which no other instance could serve anyway;
 * the events themselves are in the database.
 */
export class EventHub {
  private readonly streams = new Map<string, Set<MemberListener>>();
  /** Woken by every member's events: the due work (money arriving may pay dues in arrears). */
  private readonly everyEvent = new Set<Wake>();
  /**
   * Woken when notifications or invitations were queued (the outbox's channel, notified by the
   * queueing transaction): the notification worker, which reads the outbox itself. Not by every
   * event: most payments queue nothing, and each wake-up costs every instance its claims.
   */
  private readonly outboxWatchers = new Set<Wake>();
  /** Woken when the association's settings change: the instance's copy of them reads them again. */
  private readonly associationWatchers = new Set<Wake>();
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly log: (message: string) => void,
  ) {}

  /** Tells `listener` whenever the member may have new events, or their streams must look again; returns the unsubscribe. */
  subscribe(memberId: bigint, listener: MemberListener): () => void {
    const key = memberId.toString();
    let set = this.streams.get(key);
    if (!set) this.streams.set(key, (set = new Set()));
    set.add(listener);
    void this.listen();
    return () => {
      set.delete(listener);
      if (set.size === 0) this.streams.delete(key);
    };
  }

  /** Wakes `wake` whenever any member may have new events; returns the unsubscribe. */
  subscribeAll(wake: Wake): () => void {
    this.everyEvent.add(wake);
    void this.listen();
    return () => {
      this.everyEvent.delete(wake);
    };
  }

  /** Wakes `wake` whenever notifications or invitations may have been queued; returns the unsubscribe. */
  subscribeOutbox(wake: Wake): () => void {
    this.outboxWatchers.add(wake);
    void this.listen();
    return () => {
      this.outboxWatchers.delete(wake);
    };
  }

  /** Wakes `wake` whenever the association's row may have changed; returns the unsubscribe. */
  subscribeAssociation(wake: Wake): () => void {
    this.associationWatchers.add(wake);
    void this.listen();
    return () => {
      this.associationWatchers.delete(wake);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private wakeAll(): void {
    for (const wake of this.associationWatchers) wake();
    for (const wake of this.everyEvent) wake();
    for (const wake of this.outboxWatchers) wake();
    for (const set of this.streams.values())
      for (const listener of set) {
        listener.recheck();
        listener.wake();
      }
  }

  private listen(): Promise<void> {
    if (this.client || this.closed) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client(this.db.options);
    const lost = (why: string) => {
      if (this.client !== client) return;
      this.client = null;
      client.end().catch(() => undefined);
      if (this.closed) return;
      this.log(`event listener lost (${why}); reconnecting`);
      this.later();
    };
    client.on("error", (e) => lost(e.message));
    client.on("end", () => lost("connection ended"));
    client.on("notification", (n) => {
      if (n.channel === ASSOCIATION_CHANNEL) {
        for (const wake of this.associationWatchers) wake();
        return;
      }
      if (n.channel === OUTBOX_CHANNEL) {
        for (const wake of this.outboxWatchers) wake();
        return;
      }
      if (!n.payload) return;
      if (n.channel === EVENTS_CHANNEL) {
        for (const wake of this.everyEvent) wake();
        for (const listener of this.streams.get(n.payload) ?? []) listener.wake();
      } else if (n.channel === STREAMS_CHANNEL) {
        for (const listener of this.streams.get(n.payload) ?? []) listener.recheck();
      }
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}; LISTEN ${STREAMS_CHANNEL}; LISTEN ${ASSOCIATION_CHANNEL}; LISTEN ${OUTBOX_CHANNEL}`);
    } catch (e) {
      await client.end().catch(() => undefined);
      if (!this.closed) {
        this.log(`event listener cannot connect (${(e as Error).message}); retrying`);
        this.later();
      }
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    // What was notified while nobody listened (events, sessions ended) is looked at now.
    this.wakeAll();
  }

  private later(): void {
    if (this.retry || this.closed) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      const listened = this.streams.size + this.everyEvent.size + this.outboxWatchers.size + this.associationWatchers.size;
      if (listened > 0) void this.listen();
    }, 1000);
    this.retry.unref();
  }
}
