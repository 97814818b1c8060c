import type { LedgerCheckTrigger, LedgerHealth } from "@mutua/domain";
import { setTimeout as sleep } from "node:timers/promises";
import { createPool, type Db, type Queryable, type Tx } from "../../db/pool";
import { audit } from "../platform/audit";
import { ledgerViolations } from "../ledger/ledger";
import { rightHolders } from "../platform/separation";

/** How often the ledger's invariants are checked: by one instance, whichever gets there first. */
export const LEDGER_CHECK_EVERY_MINUTES = 60;
/** How often each instance looks whether a check is due (the first look waits as long: not at start-up). */
const LOOK_EVERY_MS = 5 * 60_000;
/** The advisory lock that makes one check run at a time across every instance ("mutua:ledger-check"). */
const CHECK_LOCK = 0x6d75_7475_6c63n;

interface Row {
  at: Date;
  trigger: LedgerCheckTrigger;
  violations: string[];
  requested_by: string | null;
}

/** The last check's result, for the health card, and who holds the validation rights. */
export async function ledgerHealth(db: Queryable): Promise<LedgerHealth> {
  const { rows } = await db.query<Row>(
    `SELECT c.at, c.trigger, c.violations, m.name AS requested_by
     FROM ledger_checks c LEFT JOIN members m ON m.id = c.requested_by ORDER BY c.at DESC, c.id DESC LIMIT 1`,
  );
  const r = rows[0];
  return {
    last: r ? { at: r.at.toISOString(), trigger: r.trigger, violations: r.violations, requestedBy: r.requested_by } : null,
    everyMinutes: LEDGER_CHECK_EVERY_MINUTES,
    rightHolders: await rightHolders(db),
  };
}

/** How soon after a check another may run: asked sooner, the last check's result is the answer. */
export const CHECK_AGAIN_AFTER_SECONDS = 60;
/** How often a caller waiting for somebody else's check looks whether it is done. */
const POLL_MS = 200;
/**
 * How long a caller waits for a check running elsewhere before it is answered the last result
 * (whose time says how old it is): under the 60 s a proxy in front commonly waits for an answer.
 */
const WAIT_AT_MOST_MS = 45_000;

interface Last {
  id: bigint;
  /** Younger than CHECK_AGAIN_AFTER_SECONDS. */
  fresh: boolean;
  /** Younger than the schedule's interval. */
  recent: boolean;
}

async function lastCheck(db: Queryable): Promise<Last | null> {
  const { rows } = await db.query<Last>(
    `SELECT id, at > clock_timestamp() - make_interval(secs => $1) AS fresh, at > clock_timestamp() - make_interval(mins => $2) AS recent
     FROM ledger_checks ORDER BY at DESC, id DESC LIMIT 1`,
    [CHECK_AGAIN_AFTER_SECONDS, LEDGER_CHECK_EVERY_MINUTES],
  );
  return rows[0] ?? null;
}

/**
 * Runs `fn` on a connection of its own, opened for it and closed after: a scan of a large ledger,
 * and the wait for somebody else's, never hold one of the request pool's connections, so members'
 * requests never queue behind them. Closing it also releases the session's advisory lock.
 */
async function onOwnConnection<T>(db: Db, fn: (c: Tx) => Promise<T>): Promise<T> {
  const own = createPool(db.options.connectionString ?? "", 1);
  try {
    const c = await own.connect();
    try {
      return await fn(c);
    } finally {
      c.release(true);
    }
  } finally {
    await own.end();
  }
}

/**
 * Runs the invariant checks and records what they found, one run at a time across every instance
 * (a session advisory lock, tried, never queued for). The schedule's run (`by` null) skips if the
 * lock is taken or a check, by anyone, is younger than the interval: it returns false then.
 *
 * A run somebody asked for skips too when the last check is younger than a minute, and when a
 * check is running (here or on another instance) it waits for that one, polling on its own
 * connection, and answers its result instead of scanning again: so a click repeated, or many
 * board members at once, cost one scan. It is audited when it ran. The checks read one snapshot
 * (REPEATABLE READ), taken once the lock is held, so a payment committing meanwhile cannot look
 * like a violation, and a check another instance just finished is seen.
 */
export async function runLedgerCheck(db: Db, by: bigint | null): Promise<{ ran: boolean; violations: string[] }> {
  const skipped = { ran: false, violations: [] };
  // The cheap answer first, on the request pool for one short query, without opening a connection.
  const seen = by === null ? null : await lastCheck(db);
  if (seen?.fresh) return skipped;
  return onOwnConnection(db, async (c) => {
    const deadline = Date.now() + WAIT_AT_MOST_MS;
    for (;;) {
      const { rows } = await c.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [CHECK_LOCK]);
      if (rows[0]!.locked) break;
      if (by === null || Date.now() >= deadline) return skipped;
      await sleep(POLL_MS);
    }
    await c.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
    try {
      const last = await lastCheck(c);
      // A check that ended while this one waited for the lock is this one's answer.
      const answered = by === null ? last?.recent : last && (last.fresh || last.id !== seen?.id);
      if (answered) {
        await c.query("COMMIT");
        return skipped;
      }
      const violations = await ledgerViolations(c);
      await c.query("INSERT INTO ledger_checks (trigger, requested_by, violations) VALUES ($1, $2, $3)", [
        by === null ? "schedule" : "demand",
        by,
        JSON.stringify(violations),
      ]);
      if (by !== null) await audit(c, by, "ledger.checked", "ledger", { violations: violations.length });
      await c.query("COMMIT");
      return { ran: true, violations };
    } catch (e) {
      await c.query("ROLLBACK").catch(() => undefined);
      throw e;
    }
  });
}

/**
 * "Check now" of one instance: while a check asked here runs, the callers who ask meanwhile wait
 * for it and get its result (the instance's one promise in flight, no connection held), so twenty
 * clicks open one connection and run at most one scan. What it found goes to the log as an error.
 */
export function ledgerCheckOnDemand(db: Db, log: ErrorLog): (by: bigint) => Promise<LedgerHealth> {
  let running: Promise<LedgerHealth> | null = null;
  const run = async (by: bigint) => {
    const { ran, violations } = await runLedgerCheck(db, by);
    if (ran && violations.length > 0) log.error({ violations }, "ledger invariant violated");
    return ledgerHealth(db);
  };
  return (by) =>
    (running ??= run(by).finally(() => {
      running = null;
    }));
}

/** What the log needs: pino's error level (the app's logger, or a test's). */
export interface ErrorLog {
  error: (o: object, m: string) => void;
}

/**
 * One look of the schedule: runs the check if one is due (runLedgerCheck), and writes what it
 * found to the log as an error, where an operator's alerting sees it.
 */
export async function scheduledCheck(db: Db, log: ErrorLog): Promise<void> {
  try {
    const { ran, violations } = await runLedgerCheck(db, null);
    if (ran && violations.length > 0) log.error({ violations }, "ledger invariant violated");
  } catch (err) {
    log.error({ err }, "ledger check failed");
  }
}

/**
 * Every instance looks now and then whether a check is due; the advisory lock and the last
 * check's time make it one run per interval across all of them. Returns the stop.
 */
export function scheduleLedgerChecks(db: Db, log: ErrorLog): () => void {
  const timer = setInterval(() => void scheduledCheck(db, log), LOOK_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
