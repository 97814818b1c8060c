import { ErrorCode, SM } from "@mutua/domain";
import type { Queryable } from "../../db/pool";
import { Refusal } from "./errors";

import type { Limit } from "../../settings";

export type { Limit };

/**
 * Counts `attempts` (one by default: an ask naming several members counts one search each) in a
 * fixed window shared by every server instance (the counter lives in PostgreSQL, updated
 * atomically) and throws 429 once the window's budget is spent.
 */
export async function hit(db: Queryable, bucket: string, limit: Limit, attempts = 1): Promise<void> {
  const { rows } = await db.query<{ hits: number; retry: number }>(
    `INSERT INTO rate_limits AS r (bucket, window_start, hits) VALUES ($1, now(), $3)
     ON CONFLICT (bucket) DO UPDATE SET
       hits = CASE WHEN r.window_start <= now() - make_interval(secs => $2) THEN $3 ELSE r.hits + $3 END,
       window_start = CASE WHEN r.window_start <= now() - make_interval(secs => $2) THEN now() ELSE r.window_start END
     RETURNING hits, ceil(extract(epoch FROM window_start + make_interval(secs => $2) - now()))::int AS retry`,
    [bucket, limit.windowSeconds, attempts],
  );
  const row = rows[0]!;
  if (row.hits > limit.max) {
    const retryAfter = Math.max(1, row.retry);
    throw new Refusal(ErrorCode.rateLimited, { id: SM.rateLimited, values: { minutes: Math.max(1, Math.ceil(retryAfter / 60)) } }, { retryAfter });
  }
  const delay = slowdown(row.hits, limit.max);
  if (delay > 0) await new Promise((r) => setTimeout(r, delay));
}

/**
 * Past half its budget, each attempt waits a little longer before it is checked: someone who
 * mistypes twice never notices, a script guessing is slowed long before it is refused. The wait
 * holds no database connection.
 */
export function slowdown(hits: number, max: number): number {
  const free = Math.ceil(max / 2);
  return hits <= free ? 0 : Math.min(SLOWDOWN_CAP_MS, (hits - free) * SLOWDOWN_STEP_MS);
}
export const SLOWDOWN_STEP_MS = 250;
const SLOWDOWN_CAP_MS = 2_000;

/** Gives back an attempt that turned out legitimate (a successful login) . */
export async function forgive(db: Queryable, bucket: string): Promise<void> {
  await db.query("UPDATE rate_limits SET hits = greatest(hits - 1, 0) WHERE bucket = $1", [bucket]);
}

export async function clear(db: Queryable, bucket: string): Promise<void> {
  await db.query("DELETE FROM rate_limits WHERE bucket = $1", [bucket]);
}
