import pg from "pg";

// int8 (bigint) columns arrive as strings by default; money and ids must never go through a float.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => BigInt(v));

export type Db = pg.Pool;
export type Tx = pg.PoolClient;
export type Queryable = pg.Pool | pg.PoolClient;

/**
 * Whether `e` says the database is not there, or not the primary, rather than anything about the
 * request: a connection refused or cut (a restart, a failover, HAProxy with no primary behind it),
 * PostgreSQL shutting down, starting up or recovering (class 08, 57P01 to 57P03), or a standby
 * answering (25006, read-only). The member is told to try again in a moment, not that the server
 * failed; what happened to a write in flight is not known from it (see `postMovement`). So is a
 * database that has no connection left to give (`isDatabaseFull`).
 */
export function isDatabaseUnavailable(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === "string") {
    if (isDatabaseFull(e) || code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03" || code === "25006") return true;
    if (["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"].includes(code)) return true;
  }
  // node-postgres words a socket closed under it, or a client it will not use again, without a code.
  return /^Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Connection terminated unexpectedly/.test(
    e.message,
  );
}

/**
 * Whether `e` is PostgreSQL refusing a connection because it has as many as it takes
 * (max_connections, or a database's or role's CONNECTION LIMIT: 53300). Nothing was done, and a
 * slot frees as soon as any client of the server lets one go: several instances (and tools) on one
 * database meet it under a burst, and a request should wait for a slot as it waits for one of its
 * own pool's connections, not fail.
 */
export function isDatabaseFull(e: unknown): boolean {
  return e instanceof Error && (e as { code?: unknown }).code === "53300";
}

/**
 * Whether `e` is PostgreSQL breaking a deadlock (40P01) or a serialization failure (40001): the
 * transaction was rolled back and did nothing, and the same request again may well pass. Most
 * movements are tried again at once (`retriedWhenAsked`); one that still meets it, or any other
 * request, tells the member to try again in a moment rather than that the server failed.
 */
export function isTransientConflict(e: unknown): boolean {
  const code = e instanceof Error ? (e as { code?: unknown }).code : undefined;
  return code === "40P01" || code === "40001";
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long a stopping server still lets a connection be made for a request in flight (WaitingPool.stop). */
const STOP_GRACE_MS = 2_000;

/** How long a connection is tried again while the database is full (`isDatabaseFull`), at least: whatever the wait for a primary, tools and tests included. */
const FULL_WAIT_MS = 10_000;

/**
 * A pool that, when it cannot connect, tries again for a while before it gives up: during a
 * failover (docs/operations.md "High availability") there is no primary for some seconds, and a
 * request that has not reached the database yet has done nothing, so it may as well wait for the
 * new one rather than fail; a database with no connection left (`isDatabaseFull`) is waited for
 * `fullWaitMs` at least. Only the connection is tried again, never a statement: what a statement
 * cut in flight did is for its caller to find out.
 */
class WaitingPool extends pg.Pool {
  constructor(
    config: pg.PoolConfig,
    private readonly waitMs: number,
    private readonly fullWaitMs: number,
  ) {
    super(config);
    this.stopped = new Promise<never>((_, reject) => (this.refuse = reject));
    // Refused with nobody waiting is no error of the process's.
    this.stopped.catch(() => undefined);
  }

  /** A connection now or an error now: for the readiness probe, which must answer at once. */
  connectNow(): Promise<pg.PoolClient> {
    return super.connect();
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  override connect(
    callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): Promise<pg.PoolClient> | void {
    const connected = this.connectWaiting();
    if (!callback) return connected;
    connected.then(
      (c) => callback(undefined, c, (release?: unknown) => c.release(release as Error | boolean | undefined)),
      (e: Error) => callback(e, undefined, () => {}),
    );
  }

  /** Set when the server stops: a request waiting for the database answers at once (503) instead. */
  stopWaiting = false;
  /** Refused once the server stops, so that a wait in progress ends then, not at its next try. */
  private readonly stopped: Promise<never>;
  private refuse: (e: Error) => void = () => undefined;
  /** Why the database could not be reached, since it last could: what the requests still waiting are told when the server stops. */
  private lastFailure: Error | null = null;

  /**
   * The server stops: a connection still waited for a moment later is refused (503 for its
   * request). The moment lets a database that answers give the requests in flight their
   * connections; one that is gone (a host that never answers, a try that hangs) does not hold the
   * stop.
   */
  stop(): void {
    this.stopWaiting = true;
    const refuse = () => this.refuse(this.lastFailure ?? Object.assign(new Error("Connection terminated: the server is stopping"), { code: "57P01" }));
    setTimeout(refuse, STOP_GRACE_MS).unref();
  }

  private async connectWaiting(): Promise<pg.PoolClient> {
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      const connecting = super.connect();
      try {
        // A try may hang (a host that never answers, a socket that neither opens nor fails): a
        // stop does not wait for it past its moment.
        const client = await (this.waitMs > 0 ? Promise.race([connecting, this.stopped]) : connecting);
        this.lastFailure = null;
        return client;
      } catch (e) {
        // The stop came first: a connection the try still makes goes back to the pool.
        if (this.stopWaiting)
          connecting.then(
            (c) => c.release(),
            () => undefined,
          );
        if (e instanceof Error && isDatabaseUnavailable(e)) this.lastFailure = e;
        const deadline = started + (isDatabaseFull(e) ? Math.max(this.waitMs, this.fullWaitMs) : this.waitMs);
        if (this.ending || this.stopWaiting || !isDatabaseUnavailable(e) || Date.now() >= deadline) throw e;
        await Promise.race([sleep(Math.min(100 * 2 ** attempt, 1000)), this.stopped]);
      }
    }
  }
}

/**
 * The request pool. `waitForPrimaryMs`: how long a connection is tried again while the database is
 * unavailable (the server's DATABASE_WAIT_SECONDS); none by default, for tools and tests.
 * `waitWhenFullMs`: how long at least while it is full (FULL_WAIT_MS by default).
 */
export function createPool(url: string, max = 10, opts: { waitForPrimaryMs?: number; waitWhenFullMs?: number } = {}): Db {
  const pool = new WaitingPool({ connectionString: url, max, idleTimeoutMillis: 30_000 }, opts.waitForPrimaryMs ?? 0, opts.waitWhenFullMs ?? FULL_WAIT_MS);
  // A connection lost (database restart) must not crash the process: the pool reports idle
  // clients' errors; a client checked out reports its own, and would throw without a listener.
  // The query in flight fails on its own, and the request answers 503 (http/errors.ts).
  pool.on("error", (err) => console.error("postgres pool error:", err.message));
  pool.on("connect", (client) => {
    client.on("error", (err) => console.error("postgres connection error:", err.message));
  });
  return pool;
}

/**
 * Stops `db` waiting for the database to come back: a server asked to stop answers the requests
 * waiting for it now (503 "Try again in a moment") rather than after DATABASE_WAIT_SECONDS.
 */
export function stopWaitingForDatabase(db: Db): void {
  if (db instanceof WaitingPool) db.stop();
}

/** Whether `db`'s server is stopping (`stopWaitingForDatabase`): nothing should wait for the database then. */
export const stoppedWaiting = (db: Db): boolean => db instanceof WaitingPool && db.stopWaiting;

/**
 * Whether the database answers now as a primary (one that takes writes): a standby, reachable
 * directly during a failover or through a list of hosts, is not ready for this server.
 */
export async function primaryAnswers(db: Db): Promise<boolean> {
  try {
    const client = db instanceof WaitingPool ? await db.connectNow() : await db.connect();
    try {
      const { rows } = await client.query<{ standby: boolean }>("SELECT pg_is_in_recovery() AS standby");
      client.release();
      return rows[0]?.standby === false;
    } catch (e) {
      client.release(e as Error);
      return false;
    }
  } catch {
    return false;
  }
}

/**
 * Runs `fn` in one database transaction: committed if it returns, rolled back if it throws.
 * A connection that cannot be had waits for the database as the pool does; one lost once `fn`
 * started fails the request (503): the transaction may have done something the caller must find
 * out again, by its idempotency key, when the client tries again.
 */
export async function inTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const client = await begun(db);
  let out: T;
  try {
    out = await fn(client);
    await client.query("COMMIT");
  } catch (e) {
    // A connection that cannot even roll back is broken: destroy it rather than pool it.
    const broken = await client.query("ROLLBACK").then(
      () => undefined,
      (rollbackError: unknown) => rollbackError as Error,
    );
    client.release(broken);
    throw e;
  }
  client.release();
  return out;
}

/**
 * A connection with a transaction begun. A pooled connection found dead at BEGIN (its server went
 * away while it sat idle) has done nothing: another is taken, waiting for the database as the pool does.
 */
async function begun(db: Db): Promise<Tx> {
  for (let attempt = 0; ; attempt++) {
    const client = await db.connect();
    try {
      await client.query("BEGIN");
      return client;
    } catch (e) {
      client.release(e as Error);
      if (!isDatabaseUnavailable(e) || attempt >= 2) throw e;
    }
  }
}
