import type { LedgerCheckTrigger, LedgerHealth } from "@mutua/domain";
import { inTransaction, type Db, type Queryable } from "../db/pool";
import { audit } from "./audit";
import { ledgerViolations } from "./ledger";

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

/** The last check's result, for the health card. */
export async function ledgerHealth(db: Queryable): Promise<LedgerHealth> {
  const { rows } = await db.query<Row>(
    `SELECT c.at, c.trigger, c.violations, m.name AS requested_by
     FROM ledger_checks c LEFT JOIN members m ON m.id = c.requested_by ORDER BY c.at DESC, c.id DESC LIMIT 1`,
  );
  const r = rows[0];
  return {
    last: r ? { at: r.at.toISOString(), trigger: r.trigger, violations: r.violations, requestedBy: r.requested_by } : null,
    everyMinutes: LEDGER_CHECK_EVERY_MINUTES,
  };
}

/**
 * Runs the invariant checks and records what they found, under the advisory lock so two runs
 * never scan the ledger at once. The schedule's run (`by` null) skips if a check, by anyone,
 * is younger than the interval: it returns false then. A run somebody asked for always runs
 * (after any run in progress) and is audited. The checks read one snapshot (REPEATABLE READ),
 * so a payment committing meanwhile cannot look like a violation.
 */
export async function runLedgerCheck(db: Db, by: bigint | null): Promise<{ ran: boolean; violations: string[] }> {
  return inTransaction(db, async (tx) => {
    await tx.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
    if (by === null) {
      const { rows } = await tx.query<{ locked: boolean }>("SELECT pg_try_advisory_xact_lock($1) AS locked", [CHECK_LOCK]);
      if (!rows[0]!.locked) return { ran: false, violations: [] };
      const { rows: due } = await tx.query<{ due: boolean }>(
        "SELECT NOT EXISTS (SELECT 1 FROM ledger_checks WHERE at > clock_timestamp() - make_interval(mins => $1)) AS due",
        [LEDGER_CHECK_EVERY_MINUTES],
      );
      if (!due[0]!.due) return { ran: false, violations: [] };
    } else {
      await tx.query("SELECT pg_advisory_xact_lock($1)", [CHECK_LOCK]);
    }
    const violations = await ledgerViolations(tx);
    await tx.query("INSERT INTO ledger_checks (trigger, requested_by, violations) VALUES ($1, $2, $3)", [
      by === null ? "schedule" : "demand",
      by,
      JSON.stringify(violations),
    ]);
    if (by !== null) await audit(tx, by, "ledger.checked", "ledger", { violations: violations.length });
    return { ran: true, violations };
  });
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
