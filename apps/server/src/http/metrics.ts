import { createHash, timingSafeEqual } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from "fastify";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { ErrorCode, MOVEMENT_KINDS, routes, type MovementKind } from "@mutua/domain";
import type { Db } from "../db/pool";
import type { Settings } from "../settings";
import { ledgerObserver, type LedgerObserver, type MovementRequest } from "../services/ledger/ledger";
import { Refusal } from "../services/platform/errors";
import { CYCLOS_PREFIX } from "../lokavaluto/shapes";

/**
 * Prometheus metrics: what one app counts (its requests, the movements it posts and refuses, the
 * group commit's batches), what is read when scraped (its pool, its open event streams, the
 * notification outbox and the last ledger check, from the database), and the process's own.
 * Served by main.ts on a port of their own (METRICS_PORT), never on the members' one.
 */

declare module "fastify" {
  interface FastifyInstance {
    /** The app's metrics (http/metrics.ts), served by main.ts when METRICS_PORT is set. */
    metrics: Metrics;
  }
}

export interface Metrics {
  /** The app's own registry: several apps in one process (the tests) never count into each other's. */
  readonly registry: Registry;
  readonly httpRequests: Counter<"route" | "method" | "status">;
  readonly httpDuration: Histogram<"route" | "method">;
  readonly movementsPosted: Counter<"kind">;
  readonly movementsRefused: Counter<"reason">;
  readonly ledgerBatchSize: Histogram;
  /** The text a scrape is answered: the app's metrics and the process's. */
  scrape(): Promise<string>;
  readonly contentType: string;
}

export function createMetrics(): Metrics {
  // The process's collectors start with the first app, not at the first scrape: a counter such as
  // process_cpu_user_seconds_total counts from when its collector was made, and made at the first
  // scrape it would read 0 there.
  const processMetricsOfApp = processRegistry();
  const registry = new Registry();
  const registers = [registry];
  const movementsPosted = new Counter({
    name: "mutua_movements_posted_total",
    help: "Movements posted by this instance's requests, by kind (replays of an idempotency key not counted).",
    labelNames: ["kind"] as const,
    registers,
  });
  // Every kind from zero, so that a rate over a kind never posted yet is 0 rather than no data.
  for (const kind of MOVEMENT_KINDS) movementsPosted.inc({ kind }, 0);
  return {
    registry,
    httpRequests: new Counter({
      name: "mutua_http_requests_total",
      help: 'HTTP requests answered, by route pattern ("unmatched" when none), method and status.',
      labelNames: ["route", "method", "status"] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: "mutua_http_request_duration_seconds",
      help: "Time to answer an HTTP request, by route pattern and method (event streams left out: they last as long as they are open).",
      labelNames: ["route", "method"] as const,
      registers,
    }),
    movementsPosted,
    movementsRefused: new Counter({
      name: "mutua_movements_refused_total",
      help: "Requests to move money refused, by the refusal's code (insufficient_balance, account_frozen, ...).",
      labelNames: ["reason"] as const,
      registers,
    }),
    ledgerBatchSize: new Histogram({
      name: "mutua_ledger_batch_size",
      help: "Movements per batch of the ledger's group commit (1: posted alone).",
      buckets: [1, 2, 4, 8, 16, 32, 64],
      registers,
    }),
    scrape: () => Registry.merge([processMetricsOfApp, registry]).metrics(),
    contentType: registry.contentType,
  };
}

let processMetrics: Registry | undefined;

/**
 * prom-client's default metrics (CPU, memory, event loop, GC), in one registry per process: they
 * describe the process, whichever app shows them, and their collectors (a GC observer, an event
 * loop monitor) can never be stopped, so one set per app would pile up in a process that builds
 * hundreds of apps (the tests). Each scrape merges them with the app's registry.
 */
function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}

/**
 * The routes whose refusals are movements refused: the payments (ours and Lokavaluto's), the
 * credits of top-ups, the reconversions' stages (the last of which pays them).
 */
const MONEY_ROUTES = new Set([
  ...[routes.transfer, routes.validateCredit, routes.advanceReconversion].map((r) => `${r.method} ${r.path}`),
  `POST ${CYCLOS_PREFIX}/self/payments`,
]);

const routeOf = (req: FastifyRequest) => req.routeOptions.url ?? "unmatched";

/**
 * Counts the app's requests into `metrics`, and defines the gauges read at scrape time from `db`
 * and the app; the app is decorated with its metrics (`app.metrics`). Called once per app, before
 * its routes are added.
 */
export function instrument(app: FastifyInstance, db: Db, metrics: Metrics): void {
  app.decorate("metrics", metrics);

  // The event streams open here: the responses of the events route whose stream has begun and not ended.
  const streams = new Set<ServerResponse>();
  app.addHook("onRequest", async (req, reply) => {
    if (routeOf(req) !== routes.events.path) return;
    const res = reply.raw;
    streams.add(res);
    res.once("close", () => streams.delete(res));
  });

  // Movements posted are heard from the ledger itself (services/ledger/ledger.ts, `ledgerObserver`),
  // which alone knows a movement posted from an idempotent replay, and its kind: the HTTP answers
  // could not tell (a replayed key, a top-up validated twice answer 200 and post nothing), and the
  // group committer could not either (it is one per pool, and the movements posted in a caller's
  // transaction, top-ups credited, reconversions paid, payment requests paid, never go through it).
  // Each request is handled in the context of an observer of its own, which counts into this app's
  // metrics. Bound here, once the body is read: the handler runs in this hook's context, which
  // reading the body from the socket would have lost.
  const observers = new WeakMap<FastifyRequest, RequestObserver>();
  app.addHook("preValidation", (req, _reply, done) => {
    const observer = new RequestObserver(metrics);
    observers.set(req, observer);
    ledgerObserver.run(observer, done);
  });

  // Movements refused are counted where the refusal leaves, by its code: whatever refused it (the
  // ledger's rules, a signature, a right), the member was told no. Bad input the contract refused
  // is a validation refusal; an error of the server's own (5xx) is no refusal.
  app.addHook("onError", async (req, _reply, err) => {
    if (!MONEY_ROUTES.has(`${req.method} ${routeOf(req)}`)) return;
    const clientError = err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500;
    if (err instanceof Refusal) metrics.movementsRefused.inc({ reason: err.code });
    else if (clientError) metrics.movementsRefused.inc({ reason: ErrorCode.validation });
  });

  app.addHook("onResponse", async (req, reply) => {
    // The route's pattern, never the URL: ids and queries would make a series per request.
    const route = routeOf(req);
    const status = reply.statusCode;
    metrics.httpRequests.inc({ route, method: req.method, status: String(status) });
    if (!(route === routes.events.path && status === 200)) metrics.httpDuration.observe({ route, method: req.method }, reply.elapsedTime / 1000);
    observers.get(req)?.answered(status);
  });

  const registers = [metrics.registry];
  new Gauge({
    name: "mutua_event_streams_open",
    help: "Server-sent event streams open on this instance.",
    registers,
    collect() {
      let open = 0;
      for (const res of streams) if (res.headersSent && !res.writableEnded) open++;
      this.set(open);
    },
  });
  new Gauge({
    name: "mutua_db_pool_connections",
    help: "The database pool of this instance: its connections (total, idle) and the queries waiting for one (waiting).",
    labelNames: ["state"] as const,
    registers,
    collect() {
      this.set({ state: "total" }, db.totalCount);
      this.set({ state: "idle" }, db.idleCount);
      this.set({ state: "waiting" }, db.waitingCount);
    },
  });
  new Gauge({
    name: "mutua_db_pool_max_connections",
    help: "The most connections the database pool of this instance opens.",
    registers,
    collect() {
      this.set(db.options.max ?? 10);
    },
  });
  databaseGauges(registers, db, app.log);
}

/**
 * One request's ear on the ledger. A movement posted in a transaction of its own is counted at
 * once: it is committed. One posted in the handler's transaction is counted when the request is
 * answered without an error, which it cannot be if that transaction rolled back; it is known by
 * its payer and key, as the ledger knows it, so that a transaction tried again after a deadlock
 * counts its movement once.
 */
class RequestObserver implements LedgerObserver {
  private inTransaction: Map<string, MovementKind> | undefined;

  constructor(private readonly metrics: Metrics) {}

  posted(movement: MovementRequest, committed: boolean): void {
    if (committed) this.metrics.movementsPosted.inc({ kind: movement.kind });
    else (this.inTransaction ??= new Map()).set(`${movement.payerWalletId}\n${movement.idempotencyKey}`, movement.kind);
  }

  batch(size: number): void {
    this.metrics.ledgerBatchSize.observe(size);
  }

  answered(status: number): void {
    if (status >= 400 || !this.inTransaction) return;
    for (const kind of this.inTransaction.values()) this.metrics.movementsPosted.inc({ kind });
    this.inTransaction = undefined;
  }
}

/** How long a scrape waits for the database: a scrape answered without these gauges beats one that times out whole. */
const DATABASE_WAIT_MS = 3_000;
/** The outbox's channels, shown at 0 when nothing waits in them. */
const CHANNELS = ["email", "push"];

interface Figures {
  outbox: { channel: string; pending: number; oldest: number | null }[];
  givenUp: { channel: string; n: number }[];
  lastCheck: { at: Date; violations: number } | undefined;
  replication: { primary: boolean; sync: number; lag: number | null };
}

/** The figures only the database knows, read in three short queries on one connection at a time. */
async function readFigures(db: Db): Promise<Figures> {
  // The lanes' partial index (migration 0021) holds exactly the deliveries not yet sent nor given up.
  const outbox = await db.query<{ channel: string; pending: number; oldest: number | null }>(
    `SELECT channel, count(*)::int AS pending, extract(epoch FROM now() - min(created_at))::float8 AS oldest
     FROM notification_deliveries WHERE sent_at IS NULL AND gave_up_at IS NULL GROUP BY channel`,
  );
  const givenUp = await db.query<{ channel: string; n: number }>(
    "SELECT channel, count(*)::int AS n FROM notification_deliveries WHERE gave_up_at IS NOT NULL GROUP BY channel",
  );
  // The last result of the ledger's invariant check (services/board/ledger-health.ts), whoever ran it.
  const check = await db.query<{ at: Date; violations: number }>(
    "SELECT at, jsonb_array_length(violations) AS violations FROM ledger_checks ORDER BY at DESC, id DESC LIMIT 1",
  );
  // High availability (docs/operations.md): whether this is the primary, its synchronous standbys,
  // and how many bytes of WAL the furthest standby has yet to replay (replay_lsn needs pg_monitor).
  const replication = await db.query<{ primary: boolean; sync: number; lag: number | null }>(
    `SELECT NOT pg_is_in_recovery() AS primary,
       (SELECT count(*)::int FROM pg_stat_replication WHERE sync_state IN ('sync', 'quorum')) AS sync,
       CASE WHEN pg_is_in_recovery() THEN NULL
         ELSE (SELECT max(pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn))::float8 FROM pg_stat_replication) END AS lag`,
  );
  return { outbox: outbox.rows, givenUp: givenUp.rows, lastCheck: check.rows[0], replication: replication.rows[0]! };
}

/**
 * The gauges read from the database at scrape time. A database down or slow never fails the
 * scrape: the read is given up after DATABASE_WAIT_MS, logged as a warning, and these gauges are
 * left out (mutua_database_up 0) rather than shown with values that would mean something else
 * (a ledger health of 0 would say the ledger is broken).
 */
function databaseGauges(registers: Registry[], db: Db, log: FastifyBaseLogger): void {
  // The gauges' collects all start together at each scrape: they share one read.
  let reading: Promise<Figures | null> | null = null;
  const read = () =>
    (reading ??= withTimeout(readFigures(db), DATABASE_WAIT_MS)
      .catch((err: unknown) => {
        log.warn({ err }, "metrics: the database could not be read; its gauges are left out of this scrape");
        return null;
      })
      .finally(() => (reading = null)));

  new Gauge({
    name: "mutua_database_up",
    help: "Whether the database answered this scrape's reads (1) or not (0: the gauges read from it are left out).",
    registers,
    async collect() {
      this.set((await read()) ? 1 : 0);
    },
  });
  // The outbox's figures per channel, every channel present (0 when it has nothing).
  const perChannel = (o: { name: string; help: string; value: (f: Figures) => { channel: string; n: number }[] }) =>
    new Gauge({
      name: o.name,
      help: o.help,
      labelNames: ["channel"] as const,
      registers,
      async collect() {
        const f = await read();
        this.reset();
        if (!f) return;
        for (const channel of CHANNELS) this.set({ channel }, 0);
        for (const r of o.value(f)) this.set({ channel: r.channel }, r.n);
      },
    });
  perChannel({
    name: "mutua_notification_outbox_depth",
    help: "Notifications (e-mails, pushes) waiting to be sent, by channel.",
    value: (f) => f.outbox.map((r) => ({ channel: r.channel, n: r.pending })),
  });
  perChannel({
    name: "mutua_notification_outbox_oldest_seconds",
    help: "Age of the oldest notification still waiting to be sent, by channel (0 when none waits).",
    value: (f) => f.outbox.map((r) => ({ channel: r.channel, n: r.oldest ?? 0 })),
  });
  perChannel({
    name: "mutua_notification_deliveries_given_up",
    help: "Notifications given up after their last attempt failed, by channel, since the outbox began.",
    value: (f) => f.givenUp,
  });
  new Gauge({
    name: "mutua_database_primary",
    help: "Whether the database this server reaches is a primary that takes writes (1) or a standby (0).",
    registers,
    async collect() {
      const f = await read();
      if (f) this.set(f.replication.primary ? 1 : 0);
      else this.set(0);
    },
  });
  new Gauge({
    name: "mutua_database_sync_standbys",
    help: "Synchronous standbys the primary has (0 with synchronous_mode strict: writes wait, a database node is down).",
    registers,
    async collect() {
      const f = await read();
      if (f) this.set(f.replication.sync);
      else this.remove();
    },
  });
  new Gauge({
    name: "mutua_database_replication_lag_bytes",
    help: "Bytes of WAL the furthest standby has yet to replay (left out without standbys or without the pg_monitor role).",
    registers,
    async collect() {
      const lag = (await read())?.replication.lag;
      if (lag !== null && lag !== undefined) this.set(lag);
      else this.remove();
    },
  });
  const lastCheck = async (gauge: Gauge, value: (c: NonNullable<Figures["lastCheck"]>) => number) => {
    const c = (await read())?.lastCheck;
    // Left out, not 0, when the database is unreadable or the ledger was never checked.
    if (c) gauge.set(value(c));
    else gauge.remove();
  };
  new Gauge({
    name: "mutua_ledger_health_ok",
    help: "Whether the ledger's last invariant check found no violation (1) or some (0).",
    registers,
    collect() {
      return lastCheck(this, (c) => (c.violations === 0 ? 1 : 0));
    },
  });
  new Gauge({
    name: "mutua_ledger_health_violations",
    help: "Violations of the ledger's invariants found by its last check.",
    registers,
    collect() {
      return lastCheck(this, (c) => c.violations);
    },
  });
  new Gauge({
    name: "mutua_ledger_health_checked_timestamp_seconds",
    help: "When the ledger's invariants were last checked (Unix time).",
    registers,
    collect() {
      return lastCheck(this, (c) => c.at.getTime() / 1000);
    },
  });
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

export type MetricsSettings = NonNullable<Settings["metrics"]>;

export interface MetricsListener {
  /** The port it listens on (the one asked, or the one given for port 0). */
  readonly port: number;
  close(): Promise<void>;
}

/**
 * The metrics' own listener: GET /metrics on `port` of `host`, nothing else. Apart from the app's
 * port so that it is never reachable where members are (by default on the loopback interface
 * only), and with a token when set, asked as `Authorization: Bearer <token>`.
 */
export async function listenMetrics(metrics: Metrics, s: MetricsSettings, log: FastifyBaseLogger): Promise<MetricsListener> {
  const allowed = bearer(s.token);
  const server = http.createServer((req, res) => {
    answer(req, res).catch((err: unknown) => {
      log.error({ err }, "metrics scrape failed");
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("metrics unavailable\n");
    });
  });
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    if (!allowed(req.headers.authorization)) {
      res.writeHead(401, { "Content-Type": "text/plain; charset=utf-8", "WWW-Authenticate": 'Bearer realm="metrics"' });
      res.end("unauthorized\n");
      return;
    }
    if (new URL(req.url ?? "/", "http://metrics").pathname !== "/metrics") {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("not found\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { "Content-Type": "text/plain; charset=utf-8", Allow: "GET, HEAD" });
      res.end("method not allowed\n");
      return;
    }
    const text = await metrics.scrape();
    res.writeHead(200, { "Content-Type": metrics.contentType, "Cache-Control": "no-store" });
    res.end(req.method === "HEAD" ? undefined : text);
  };
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(s.port, s.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A scraper's keep-alive connection would otherwise hold the close for its whole timeout.
        server.closeIdleConnections();
      }),
  };
}

/**
 * Whether an Authorization header carries the token (anything does without one). Compared as
 * SHA-256 digests, in constant time: neither the time nor the length of a wrong guess says how
 * close it came.
 */
function bearer(token: string | undefined): (header: string | undefined) => boolean {
  if (!token) return () => true;
  const digest = (s: string) => createHash("sha256").update(s).digest();
  const expected = digest(`Bearer ${token}`);
  return (header) => header !== undefined && timingSafeEqual(digest(header), expected);
}
