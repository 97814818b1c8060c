import { SM } from "@mutua/domain";
import { isTimeZone, UNKNOWN_TIME_ZONE } from "@mutua/domain/api/schemas";
import { inTransaction, type Db, type Tx } from "../../db/pool";
import { invalid } from "../platform/errors";

/** The longest period the board reads: ten years of weeks is 522 buckets per currency. */
const MAX_DAYS = 3660;

/**
 * How many of the board's reads (figures, books) one instance runs at once: each may aggregate
 * or list the whole ledger, and a few board members asking together must leave the instance, its
 * CPU and its connections to the members. Those past it wait in turn, holding no connection.
 */
export const BOARD_READS_AT_ONCE = 2;
let reading = 0;
const waiting: (() => void)[] = [];

async function inTurn<T>(fn: () => Promise<T>): Promise<T> {
  if (reading < BOARD_READS_AT_ONCE) reading++;
  else await new Promise<void>((start) => waiting.push(start));
  try {
    return await fn();
  } finally {
    // The place passes to the next one waiting, or is given back.
    const next = waiting.shift();
    if (next) next();
    else reading--;
  }
}

/** A period of the board's (figures, books): days `from` and `to`, both included, in the time zone `tz`. */
export interface Period {
  from: string;
  to: string;
  tz: string;
}

/** A real calendar day (2026-02-30 is not one), as the day number since the epoch. */
function dayNumber(s: string): number | null {
  const t = Date.parse(`${s}T00:00:00Z`);
  if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== s) return null;
  return t / 86_400_000;
}

/**
 * SQL naming the period's bounds as instants, for a WITH clause: `start_at` (the start of `from`)
 * and `end_at` (the end of `to`), from parameters $1 from, $2 to, $3 tz.
 */
export const PERIOD_BOUNDS = `bounds AS (
  SELECT ($1::date::timestamp AT TIME ZONE $3) AS start_at, (($2::date + 1)::timestamp AT TIME ZONE $3) AS end_at
)`;

/**
 * Runs `read` on one read-only snapshot (REPEATABLE READ), so every figure of an answer stands
 * at the same instant, once the period is checked: a known zone, real days, `from` not after
 * `to`, ten years at most; and in turn with the instance's other board reads (BOARD_READS_AT_ONCE).
 */
export async function readPeriod<T>(db: Db, p: Period, read: (tx: Tx) => Promise<T>): Promise<T> {
  if (!isTimeZone(p.tz)) throw invalid({ tz: { id: UNKNOWN_TIME_ZONE } });
  const from = dayNumber(p.from);
  const to = dayNumber(p.to);
  if (from === null || to === null || to < from || to - from >= MAX_DAYS) throw invalid({ to: { id: SM.periodInvalid } });
  try {
    return await inTurn(() =>
      inTransaction(db, async (tx) => {
        await tx.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
        return await read(tx);
      }),
    );
  } catch (e) {
    // The contract lets through the names this runtime knows; PostgreSQL's list may lack one.
    if ((e as { code?: string }).code === "22023" && /time zone/i.test(String((e as Error).message))) throw invalid({ tz: { id: UNKNOWN_TIME_ZONE } });
    throw e;
  }
}
