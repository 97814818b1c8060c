import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../db/pool";
import type { EventHub, MemberListener } from "../services/notifications/event-hub";
import { currentPosition, eventsAfter, positionAfter, type StreamPosition } from "../services/notifications/member-events";
import { REFRESH_MS, refreshStreams, registerStream, sweepStaleStreams, unregisterStreams } from "../services/notifications/event-streams";
import { loginRequired } from "../services/platform/errors";
import { sessionsLeft } from "../services/members/sessions";
import { openEventStream, type EventStream } from "./event-stream";

/**
 * How long the EventSource of a stream closed as the oldest beyond the caps waits before it
 * reconnects. Were it at once, it would close the next oldest, and so round the tabs for ever;
 * its app meanwhile polls, as when any stream is down.
 */
export const SUPERSEDED_RETRY_MS = 5 * 60_000;

/** setTimeout's longest wait (about 24.8 days; sessions may last longer). */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface OpenStream {
  /** Its row in event_streams. */
  id: bigint;
  stream: EventStream;
  sessionHash: Buffer;
  feed: MemberFeed;
  /** Past every event it handed out. */
  position: StreamPosition;
  /** Looks at the session again when it is due to expire (idle, unless used meanwhile, or absolute). */
  expiry: NodeJS.Timeout | null;
}

interface Options {
  db: Db;
  hub: EventHub;
  idleSeconds: number;
  /** The association's name now (it may change while streams are open). */
  associationName: () => string;
  log: FastifyBaseLogger;
}

/**
 * The event streams open on this instance (docs/architecture.md "Live money"), grouped by member. A stream lives
 * no longer than its session: it looks at it again when any instance says one of the member's
 * sessions ended (the hub), when the session is due to expire, and at each heartbeat, and always
 * before it reads anything more. Its row in event_streams is what counts it against the caps on
 * every instance (services/notifications/event-streams.ts).
 *
 * Only the open connections of this process live here; whatever another instance must know is in
 * the database.
 */
export class EventFeeds {
  private readonly feeds = new Map<string, MemberFeed>();
  private readonly streams = new Map<bigint, OpenStream>();
  private heartbeat: NodeJS.Timeout | null = null;
  /** Rows of streams closed here, removed together a moment later. */
  private doomed: bigint[] = [];
  private readonly removals = new Set<Promise<void>>();

  constructor(readonly o: Options) {}

  /**
   * Turns the request into the member's event stream on the session `sessionHash`, resuming after
   * event `resume` if the member has it, else starting now.
   */
  async open(req: FastifyRequest, reply: FastifyReply, memberId: bigint, sessionHash: Buffer, resume: string | undefined): Promise<void> {
    const { db } = this.o;
    const registered = await registerStream(db, memberId, sessionHash, this.o.idleSeconds);
    if (!registered) throw loginRequired();
    // The others closed as the oldest are told through the database; those held here end at once.
    for (const id of registered.superseded) this.streams.get(id)?.stream.end(SUPERSEDED_RETRY_MS);
    let position: StreamPosition;
    try {
      // An unknown resume point (another member's id, a database restored from a backup) starts now.
      position = (resume ? await positionAfter(db, memberId, BigInt(resume)) : null) ?? (await currentPosition(db, memberId));
    } catch (err) {
      this.forget(registered.id);
      throw err;
    }
    const stream = openEventStream(req, reply);
    // The position, so that an EventSource reconnecting after a silent spell still resumes from here.
    stream.send({ event: "ready", id: position.id.toString(), data: "{}" });
    const feed = this.feedOf(memberId);
    const open: OpenStream = { id: registered.id, stream, sessionHash, feed, position, expiry: null };
    this.streams.set(open.id, open);
    feed.streams.add(open);
    // An event committed between the position's read and now woke no one here: read once.
    feed.wake();
    this.heartbeat ??= setInterval(() => void this.beat(), REFRESH_MS).unref();
    stream.onClose(() => {
      if (open.expiry) clearTimeout(open.expiry);
      this.streams.delete(open.id);
      feed.remove(open);
      this.forget(open.id);
      if (this.streams.size === 0 && this.heartbeat) {
        clearInterval(this.heartbeat);
        this.heartbeat = null;
      }
    });
    // The session is looked at once more now it is followed here: had it ended since the
    // registration, the notification saying so would have found no stream of the member's here.
    feed.recheck();
  }

  /** Ends every stream (their EventSources reconnect to another instance), and removes their rows. */
  async close(): Promise<void> {
    for (const s of this.streams.values()) s.stream.end();
    await Promise.all(this.removals);
  }

  /**
   * Ends those of `streams` whose session is no longer live, and those closed as the oldest beyond
   * the caps (their rows are gone); marks the others' rows as still open.
   */
  async check(streams: Iterable<OpenStream>): Promise<void> {
    const open = [...streams].filter((s) => !s.stream.closed);
    if (open.length === 0) return;
    const hashes = new Map(open.map((s) => [s.sessionHash.toString("hex"), s.sessionHash]));
    const [registered, left] = await Promise.all([
      refreshStreams(
        this.o.db,
        open.map((s) => s.id),
      ),
      sessionsLeft(this.o.db, [...hashes.values()], this.o.idleSeconds),
    ]);
    for (const s of open) {
      const ms = left.get(s.sessionHash.toString("hex"));
      if (ms === undefined) s.stream.end();
      else if (!registered.has(s.id)) s.stream.end(SUPERSEDED_RETRY_MS);
      else {
        if (s.expiry) clearTimeout(s.expiry);
        s.expiry = setTimeout(() => s.feed.recheck(), Math.min(Math.max(ms, 0) + 20, MAX_TIMER_MS));
      }
    }
  }

  private feedOf(memberId: bigint): MemberFeed {
    const key = memberId.toString();
    let feed = this.feeds.get(key);
    if (!feed) {
      const created = new MemberFeed(this, memberId);
      const unsubscribe = this.o.hub.subscribe(memberId, created);
      created.onEmpty = () => {
        unsubscribe();
        this.feeds.delete(key);
      };
      this.feeds.set(key, (feed = created));
    }
    return feed;
  }

  /**
   * The heartbeat: every stream here looks at its session (its idle expiry moves as the member
   * uses it elsewhere) and marks its row as still open; rows of instances that died are swept.
   */
  private async beat(): Promise<void> {
    try {
      await this.check(this.streams.values());
      await sweepStaleStreams(this.o.db);
    } catch (err) {
      this.o.log.warn({ err }, "event streams' heartbeat failed; tried again at the next");
    }
  }

  private forget(id: bigint): void {
    this.doomed.push(id);
    if (this.doomed.length > 1) return;
    const removal = new Promise<void>((r) => setImmediate(r))
      .then(() => unregisterStreams(this.o.db, this.doomed.splice(0)))
      .catch((err: unknown) => this.o.log.warn({ err }, "closed event streams not unregistered; swept once stale"))
      .finally(() => this.removals.delete(removal));
    this.removals.add(removal);
  }
}

/**
 * One member's streams on this instance. A wake-up reads the member's new events once for all of
 * them: streams at the same position share the read (those resumed elsewhere read on their own
 * until they catch up).
 */
class MemberFeed implements MemberListener {
  readonly streams = new Set<OpenStream>();
  onEmpty: () => void = () => undefined;
  private reading = false;
  private again = false;
  private mustCheck = false;

  constructor(
    private readonly feeds: EventFeeds,
    private readonly memberId: bigint,
  ) {}

  wake(): void {
    void this.pass();
  }

  recheck(): void {
    this.mustCheck = true;
    void this.pass();
  }

  remove(s: OpenStream): void {
    this.streams.delete(s);
    if (this.streams.size > 0) return;
    this.onEmpty();
  }

  private async pass(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    const { db, associationName, log } = this.feeds.o;
    try {
      do {
        this.again = false;
        // Before anything more is read: a session ended is never handed what came after.
        if (this.mustCheck) {
          this.mustCheck = false;
          await this.feeds.check(this.streams);
        }
        const atPosition = new Map<string, OpenStream[]>();
        for (const s of this.streams) {
          if (s.stream.closed) continue;
          const key = s.position.seq.toString();
          atPosition.set(key, [...(atPosition.get(key) ?? []), s]);
        }
        for (const group of atPosition.values()) {
          const out = await eventsAfter(db, this.memberId, group[0]!.position, associationName());
          for (const s of group) {
            for (const e of out.events) s.stream.send({ id: e.id, data: JSON.stringify(e) });
            s.position = out.position;
          }
          // A stream resumed after many events takes them a page at a time.
          if (out.more) this.again = true;
        }
      } while (this.again);
    } catch (err) {
      log.error({ err }, "event stream read failed");
      // Their EventSources reconnect, and resume where they were.
      for (const s of this.streams) s.stream.end();
    } finally {
      this.reading = false;
    }
  }
}
