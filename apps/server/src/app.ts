import type { Socket } from "node:net";
import Fastify, { LogController, type FastifyInstance, type FastifyError, type FastifyReply } from "fastify";
import compress from "@fastify/compress";
import cookie from "@fastify/cookie";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { hasZodFastifySchemaValidationErrors, jsonSchemaTransform, serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { APP_VERSION, ErrorCode, M, SM, directoryConfig, isMsgId, type Msg } from "@mutua/domain";
import { isDatabaseUnavailable, isTransientConflict, primaryAnswers, stopWaitingForDatabase } from "./db/pool";
import { endEventStreams } from "./http/event-stream";
import type { AppDeps, Deps } from "./deps";
import { Refusal, invalid } from "./services/platform/errors";
import { errorBody, statusOf } from "./http/errors";
import { operation } from "./http/contract";
import { keepRawBody, parseJsonBody } from "./http/json-body";
import { authRoutes } from "./routes/auth";
import { meRoutes } from "./routes/me";
import { profileRoutes } from "./routes/profile";
import { accountRoutes } from "./routes/accounts";
import { cashierRoutes } from "./routes/cashiers";
import { paymentRoutes } from "./routes/payments";
import { paymentRequestRoutes } from "./routes/payment-requests";
import { standingOrderRoutes } from "./routes/standing-orders";
import { standingOrdersStep } from "./services/payments/standing-orders-step";
import { pinRoutes } from "./routes/pins";
import { passkeyRoutes } from "./routes/passkeys";
import { topUpRoutes } from "./routes/topups";
import { adminRoutes } from "./routes/admin";
import { federationRoutes } from "./routes/federation";
import { importRoutes } from "./routes/import";
import { marketRoutes } from "./routes/market";
import { eventRoutes } from "./routes/events";
import { orderPages } from "./routes/orders";
import { lokavalutoRoutes } from "./lokavaluto";
import { liveConfig, readConfigFile, webRoutes } from "./web";
import { LiveAssociation, liveSettings } from "./services/association/live";
import { securityHeaders } from "./http/security";
import { directoryRoutes } from "./routes/directory";
import { requestId, requestLogging } from "./http/logging";
import { createMetrics, instrument } from "./http/metrics";
import { scheduleSweeps } from "./maintenance";
import { DueWork } from "./services/platform/due-work";
import { endingTeller } from "./services/federation/doubt";
import { routesTeller } from "./services/federation/forwarding";
import { keyTeller } from "./services/federation/key-rotation";
import { termsTeller } from "./services/federation/link-terms";
import { linkEndedTeller } from "./services/federation/link-ending";
import { addressStep, addressTeller } from "./services/federation/address-change";
import { settlementTeller } from "./services/federation/settlements";
import { outboxStep } from "./services/federation/peer-outbox";
import { duesSteps } from "./services/association/dues-collect";
import { duesRoutes } from "./routes/dues";
import { scheduleLedgerChecks } from "./services/board/ledger-health";
import { featuresOf } from "./services/platform/features";
import { EventHub } from "./services/notifications/event-hub";
import { NotificationWorker } from "./services/notifications/notification-worker";
import { peerNet } from "./services/federation/peer-net";
import { scheduleRecovery } from "./services/federation/recovery";
import { notificationRoutes } from "./routes/notifications";
import { pushRoutes } from "./routes/push";
import { vapidKeys } from "./services/notifications/vapid";

/** A connection as a stop that waits for it tells it: from where, what went through, the answer it is writing. */
function describeSocket(socket: Socket): string {
  const res = (socket as Socket & { _httpMessage?: { req?: { method?: string; url?: string }; writableEnded?: boolean } })._httpMessage;
  const answering = res ? `, answering ${res.req?.method} ${res.req?.url?.split("?")[0]}${res.writableEnded ? " (ended)" : ""}` : "";
  return ` [from port ${socket.remotePort}: ${socket.bytesRead} bytes in, ${socket.bytesWritten} out${answering}]`;
}

declare module "fastify" {
  interface FastifyInstance {
    /** What closing the app waits for now (main.ts says it when a stop hangs). */
    closingStep(): string;
  }
}

export async function buildApp(deps: Deps, opts: { logger?: boolean; logStream?: NodeJS.WritableStream } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logStream ? { level: "info", stream: opts.logStream } : opts.logger ? { level: process.env.LOG_LEVEL ?? "info" } : false,
    // One line per request, written by requestLogging without headers, bodies or queries.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestId,
    trustProxy: deps.settings.trustProxy,
    bodyLimit: 64 * 1024,
    // A malformed or overlong URL is answered like any other bad request, in the API's format.
    frameworkErrors: (err, _req, reply) => {
      void (reply as FastifyReply)
        .status(400)
        .send({ error: { code: ErrorCode.validation, message: `${M.invalidRequest} ${err.message}`, msgid: M.invalidRequest } });
    },
  });
  // What a stop waits for, for main.ts to say if it hangs: the requests not answered yet (their
  // route and age), then each piece of background work in turn.
  const inFlight = new Map<string, { route: string; since: number }>();
  // Tracked from the first hook, before any that may wait for the database.
  let closingStep = "answering the requests in flight";
  app.decorate("closingStep", () => {
    const now = Date.now();
    const requests = [...inFlight.values()].map((r) => `${r.route} (${((now - r.since) / 1000).toFixed(1)} s)`);
    const open = `${sockets.size} connection${sockets.size === 1 ? "" : "s"} open${[...sockets].map(describeSocket).join("")}`;
    return requests.length > 0 ? `${closingStep}, ${open}: ${requests.join(", ")}` : `${closingStep}, ${open}`;
  });
  const sockets = new Set<Socket>();
  app.server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  // A connection opened that never sent a request is not idle to Node.js, and would keep a closing
  // server open until its client spoke or the headers' timeout: it has nothing to lose.
  const closeSilentConnections = () => {
    for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
  };
  // Before the server waits for its requests to finish: event streams never do, and a request
  // waiting for a database that is gone would for DATABASE_WAIT_SECONDS; an instance asked to stop
  // ends the first (their EventSources reconnect elsewhere) and answers the second 503 at once.
  // Registered before any route's own preClose, as Fastify runs them in turn and one of those (the
  // removal of closed streams' rows) waits for the database until this one says not to.
  // A request answered once the server is closing closes its connection too: kept alive, it would
  // keep the server waiting for the client to close it.
  let closing = false;
  app.addHook("onSend", async (_req, reply) => {
    if (closing) reply.header("connection", "close");
  });
  app.addHook("preClose", async () => {
    closing = true;
    // A connection busy when the server starts closing becomes idle once its answer is out; kept
    // alive (Fastify's 72 s), it would keep the server from closing until its client let go. From
    // now on a connection is closed as soon as it is idle.
    app.server.keepAliveTimeout = 1;
    closeSilentConnections();
    stopWaitingForDatabase(deps.db);
    endEventStreams(app.server);
    // The routes' own preClose hooks come next (the event streams' rows removed), then the wait
    // for the requests in flight: a stop stuck in either says so.
    closingStep = "ending the event streams (their rows removed), then answering the requests in flight";
  });
  app.addHook("onRequest", async (req) => {
    inFlight.set(req.id, { route: `${req.method} ${req.routeOptions.url ?? "?"}`, since: Date.now() });
  });
  app.addHook("onResponse", async (req) => {
    inFlight.delete(req.id);
  });
  app.addHook("onRequestAbort", async (req) => {
    inFlight.delete(req.id);
  });
  // JSON bodies nested too deep (or poisoned) are refused before anything walks them (http/json-body.ts).
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (req, text, done) => {
    // Another server's message is signed over its body's digest: the bytes as they came are kept.
    if (req.url.startsWith("/api/federation/")) keepRawBody(req, String(text));
    try {
      done(null, parseJsonBody(String(text)));
    } catch (e) {
      done(e as Refusal, undefined);
    }
  });
  // PostgreSQL text cannot hold U+0000: refused here as bad input, before it reaches a query.
  app.addHook("preValidation", async (req) => {
    for (const part of [req.body, req.query, req.params]) {
      if (part !== undefined && JSON.stringify(part).includes("\\u0000")) throw new Refusal(ErrorCode.validation, { id: M.invalidRequest });
    }
  });
  requestLogging(app);
  // Prometheus metrics (http/metrics.ts), counted before any route is added; main.ts serves them on METRICS_PORT.
  instrument(app, deps.db, deps.metrics ?? createMetrics());
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // The embedded default has no proxy in front to compress: the app's JavaScript is a third of its size gzipped.
  await app.register(compress, { threshold: 1024, encodings: ["br", "gzip"] });
  await app.register(cookie);
  // The association's row, read now and kept current (services/association/live.ts): its name,
  // bank details and switches reach every route through `settings`, `features` and config.json.
  const live = new LiveAssociation(deps.db, (m) => app.log.warn(m));
  const hub = new EventHub(deps.db, (m) => app.log.warn(m));
  await live.start(hub);
  const settings = liveSettings(deps.settings, live);
  const config = liveConfig(deps.settings, readConfigFile(deps.settings), live);
  const full = { ...deps, settings, defaultLanguage: config().locales.defaultLanguage } as AppDeps;
  Object.defineProperty(full, "features", { enumerable: true, get: () => featuresOf(config()) });
  securityHeaders(app, settings, config);
  await app.register(swagger, {
    openapi: {
      info: { title: "Mutua API", version: APP_VERSION, description: "The API of a Mutua association server." },
      components: {
        securitySchemes: {
          session: { type: "http", scheme: "bearer", description: "Session token (or the mutua_session cookie)" },
          peerSignature: {
            type: "apiKey",
            in: "header",
            name: "Signature",
            description: "A linked association's server: RFC 9421 message signature by its Ed25519 key (docs/federation.md)",
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: "/api/docs" });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof Refusal) {
      if (err.extra.retryAfter) reply.header("Retry-After", String(err.extra.retryAfter));
      return reply.status(statusOf(err)).send(errorBody(err));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, Msg> = {};
      for (const v of err.validation) {
        const key = v.instancePath.replace(/^\//, "").replace(/\//g, ".") || "body";
        // A schema that names its refusal (a msgid as the message) is answered in its words;
        // a length refused says its limit.
        const id = v.message && isMsgId(v.message) ? v.message : M.invalidRequest;
        const max = id === M.fieldTooLong ? (v.params as { maximum?: unknown }).maximum : undefined;
        fields[key] ??= typeof max === "number" ? { id, values: { max } } : { id };
      }
      return reply.status(400).send(errorBody(invalid(fields)));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      // Malformed JSON, wrong content type, body too large: the client's fault, said plainly.
      return reply
        .status(err.statusCode)
        .send({ error: { code: ErrorCode.validation, message: `${M.invalidRequest} ${err.message}`, msgid: M.invalidRequest } });
    }
    if (isDatabaseUnavailable(err)) {
      // No primary for the moment (a failover, a restart): the member's app tries again, with the
      // same key for a payment, rather than show a server error.
      req.log.warn({ err: err.message }, "database unavailable");
      reply.header("Retry-After", "2");
      return reply.status(503).send(errorBody(new Refusal(ErrorCode.unavailable, { id: SM.databaseUnavailable }, { retryAfter: 2 })));
    }
    if (isTransientConflict(err)) {
      // A deadlock broken or a serialization failure: rolled back, nothing done; the same again may pass.
      req.log.warn({ err: err.message }, "transaction rolled back by the database, to be tried again");
      reply.header("Retry-After", "1");
      return reply.status(503).send(errorBody(new Refusal(ErrorCode.unavailable, { id: SM.databaseUnavailable }, { retryAfter: 1 })));
    }
    req.log.error({ err }, "unhandled error");
    return reply.status(500).send(errorBody(new Refusal(ErrorCode.internal, { id: M.internalError })));
  });

  // Liveness: the process answers. Readiness: it can serve, i.e. the database answers too.
  operation(app, deps, "health", async () => ({ status: "ok" as const, version: APP_VERSION }));
  operation(app, deps, "ready", async () => {
    // A standby, or no database at all, is not ready: a load balancer sends nobody here meanwhile.
    if (!(await primaryAnswers(deps.db))) throw new Refusal(ErrorCode.unavailable, { id: M.backendUnavailable });
    return { status: "ready" as const };
  });
  authRoutes(app, full);
  meRoutes(app, full);
  profileRoutes(app, full);
  accountRoutes(app, full);
  cashierRoutes(app, full);
  directoryRoutes(app, full, config);
  paymentRoutes(app, full);
  paymentRequestRoutes(app, full);
  // Dues and standing orders fall due on the association's calendar days (the directory's time zone).
  const timeZone = () => directoryConfig(config()).timeZone;
  standingOrderRoutes(app, full, { timeZone, wake: () => dueWork.wake() });
  pinRoutes(app, full);
  passkeyRoutes(app, full);
  topUpRoutes(app, full);
  adminRoutes(app, full);
  federationRoutes(app, full);
  importRoutes(app, full);
  marketRoutes(app, full);
  // The instance's one LISTEN connection (made above): it wakes the event streams, the
  // notification worker and the association's copy.
  eventRoutes(app, full, hub);
  notificationRoutes(app, full);
  pushRoutes(app, full);
  orderPages(app, full);
  await lokavalutoRoutes(app, full);
  // Every instance clears expired rate-limit windows and challenges on its own timer.
  let stopSweeps: (() => void) | undefined;
  // One instance at a time checks the ledger's invariants (advisory lock), once an interval.
  let stopChecks: (() => void) | undefined;
  // Every instance asks about the payments across left in doubt, each claimed by one (services/federation/recovery.ts).
  let stopRecovery: (() => void) | undefined;
  // Every instance sends notification e-mails and pushes too: they share the outbox in the database.
  const worker = new NotificationWorker({
    db: deps.db,
    settings,
    mailer: deps.mailer,
    hub,
    defaultLanguage: full.defaultLanguage,
    pushAgent: deps.pushAgent,
    log: (level, m) => app.log[level](m),
  });
  // Every instance collects what falls due by the calendar (services/platform/due-work.ts); each
  // area's steps are listed here.
  const dues = {
    db: deps.db,
    timeZone,
    defaultLanguage: full.defaultLanguage,
    retrySeconds: settings.duePollSeconds,
  };
  // What the other server of a link has not acknowledged yet is told again (services/federation/peer-outbox.ts).
  const dueWork = new DueWork(
    [
      ...duesSteps(dues),
      standingOrdersStep(deps.db, timeZone),
      // This server's address first: moved (its PUBLIC_URL changed), each active link is told it in the step after.
      addressStep(deps.db, full.settings),
      outboxStep(peerNet(full.settings, deps.peerSeam), deps.db, {
        terms: termsTeller,
        ending: endingTeller,
        link_ended: linkEndedTeller,
        address: addressTeller,
        routes: routesTeller,
        key: keyTeller,
        settlement: settlementTeller,
      }),
    ],
    settings.duePollSeconds * 1000,
    (m) => app.log.error(m),
  );
  duesRoutes(app, full, config, () => dueWork.wake());
  // Money arriving may pay dues in arrears: the due work looks again soon (at most once a second).
  hub.subscribeAll(throttled(() => dueWork.wake(), 1000));
  app.addHook("onReady", async () => {
    dueWork.start();
    stopSweeps = scheduleSweeps(deps.db, deps.settings, (err) => app.log.error({ err }, "sweep of expired rows failed"));
    stopChecks = scheduleLedgerChecks(deps.db, app.log);
    stopRecovery = scheduleRecovery(peerNet(full.settings, deps.peerSeam), deps.db, app.log);
    // The VAPID key is made at the first start (services/notifications/vapid.ts), or at its first use if the
    // database is not there yet: an instance starts, alive, without it (GET /api/health).
    vapidKeys(deps.db).catch((err: unknown) => app.log.warn({ err }, "VAPID key not made yet: made when first used"));
    worker.start();
  });
  app.addHook("onClose", async () => {
    stopSweeps?.();
    stopChecks?.();
    stopRecovery?.();
    closingStep = "finishing the due work's step in progress";
    await dueWork.stop();
    // The message being sent is marked before the hub and then the pool (the caller's) close.
    closingStep = "finishing the notification being sent";
    await worker.stop();
    live.stop();
    closingStep = "closing the LISTEN connection";
    await hub.close();
    closingStep = "closed";
  });
  await webRoutes(app, settings, deps.db, config);
  // The last preClose, just before the server stops listening: a connection opened while the
  // routes' hooks ran (a load balancer's, a client's retry) that has sent nothing yet would keep the
  // closing server waiting as the ones the first hook found did.
  app.addHook("preClose", async () => closeSilentConnections());
  return app;
}

/** `f`, called at most once per `ms`: a call within the window runs once at its end. */
function throttled(f: () => void, ms: number): () => void {
  let timer: NodeJS.Timeout | null = null;
  return () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      f();
    }, ms);
    timer.unref();
  };
}
