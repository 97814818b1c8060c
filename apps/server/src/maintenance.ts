import type { Db } from "./db/pool";
import type { Settings } from "./settings";
import { sweepAsks } from "./services/payments/asks";
import { sweepPaymentRequests } from "./services/payments/payment-requests";

/** How often each instance clears what has expired; several instances doing it is harmless. */
export const SWEEP_INTERVAL_MS = 10 * 60_000;

/**
 * Deletes rows that can no longer count for anything: rate-limit windows older than the longest
 * window in force, WebAuthn challenges past their expiry (anonymous login options write one
 * each), payment requests never paid, a day after they expired, and asks for money that ended
 * unpaid, a month after (with the events that told of them). Idempotent, so every
 * instance may run it on its own schedule without coordination.
 */
export async function sweepExpired(db: Db, s: Settings): Promise<{ rateLimits: number; challenges: number; paymentRequests: number; asks: number }> {
  const longest = Math.max(...Object.values(s.limits).map((l) => l.windowSeconds));
  const rateLimits = await db.query("DELETE FROM rate_limits WHERE window_start < now() - make_interval(secs => $1)", [longest]);
  const challenges = await db.query("DELETE FROM webauthn_challenges WHERE expires_at < now()");
  const paymentRequests = await sweepPaymentRequests(db);
  const asks = await sweepAsks(db);
  return { rateLimits: rateLimits.rowCount ?? 0, challenges: challenges.rowCount ?? 0, paymentRequests, asks };
}

/** Runs the sweep at start and then on a timer that never keeps the process alive; returns its stop. */
export function scheduleSweeps(db: Db, s: Settings, log: (err: unknown) => void): () => void {
  const run = () => void sweepExpired(db, s).catch(log);
  run();
  const timer = setInterval(run, SWEEP_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
