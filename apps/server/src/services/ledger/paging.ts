import { M } from "@mutua/domain";
import { invalid } from "../platform/errors";

/**
 * Keyset paging of movement lists (transactions, a till's sales): a cursor is the last row's
 * created_at to the microsecond and its id, newest first.
 */
export function encodeCursor(at: string, id: bigint): string {
  return Buffer.from(`${at}|${id}`).toString("base64url");
}

const BIGINT_MAX = 9223372036854775807n;

/**
 * The position a cursor of ours encodes, checked as strictly as we wrote it: PostgreSQL must never
 * be handed a date or an id it refuses (that would be a 500). Anything else is the client's error.
 */
export function decodeCursor(c: string | undefined): { at: string; id: string } | null {
  if (!c) return null;
  const [at, id, ...rest] = Buffer.from(c, "base64url").toString().split("|");
  if (rest.length > 0 || !at || !id || !/^\d{1,19}$/.test(id) || BigInt(id) > BIGINT_MAX || !isUtcMicros(at)) {
    throw invalid({ cursor: { id: M.invalidRequest } });
  }
  return { at, id };
}

/** "2026-11-24T10:00:00.123456Z", a real date and time (no 30 February, no 25 o'clock, no year 0). */
function isUtcMicros(at: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(at) || at.startsWith("0000-")) return false;
  const d = new Date(`${at.slice(0, 23)}Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 19) === at.slice(0, 19);
}

/** The contract checks a bound's form and calendar; the one date it lets through that PostgreSQL refuses is year 0. */
export function checkBound(name: "from" | "to", value: string | undefined): void {
  if (value?.startsWith("0000-")) throw invalid({ [name]: { id: M.invalidRequest } });
}
