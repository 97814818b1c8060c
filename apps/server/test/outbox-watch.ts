import { expect } from "vitest";
import type { Db } from "../src/db/pool";
import { OUTBOX_CHANNEL } from "../src/services/platform/mail";

/**
 * A test's view of the notification workers at work (services/notifications/notification-worker.ts),
 * for checking that something did NOT happen without sleeping: a worker's lane keeps claiming until
 * a claim comes out empty, so a claim begun after the event a test made, and empty, says that the
 * workers have looked at the outbox since and found nothing more there to send (what is due is
 * claimed, what is claimed counts its attempt in its row). The tests then wait for those attempts
 * to reach their mail server or push service, which they run themselves.
 *
 * The workers' pool is the test's own, so its queries are watched there: each lane's claim is
 * recognised by its SQL. If that SQL changes, `drained` times out saying so: it can never pass on
 * a claim it did not see.
 */

export type Lane = "email" | "push" | "invitations";

const CLAIMS: [Lane, RegExp][] = [
  // notification-deliveries.ts claimEmail
  ["email", /FROM notification_deliveries d\s+WHERE d\.channel = 'email'[\s\S]*FOR UPDATE SKIP LOCKED/],
  // notification-deliveries.ts claimPush: its first statement, the members with a push due and room for it
  ["push", /SELECT DISTINCT ON \(s\.member_id\) s\.member_id[\s\S]*FROM notification_deliveries d JOIN push_subscriptions s/],
  // members/invitations.ts claimInvitation
  ["invitations", /FROM member_invitations i\s+WHERE[\s\S]*FOR UPDATE SKIP LOCKED/],
];

export interface OutboxWatch {
  /**
   * Wakes every instance's worker on the pool's database, then waits until a claim of `lane` begun
   * after this call has come out empty: everything due in that lane has been claimed since then.
   */
  drained(lane: Lane): Promise<void>;
}

export function watchOutbox(pool: Db): OutboxWatch {
  /** Claims begun so far, of any lane: a claim's number says when it began. */
  let begun = 0;
  /** Per lane, the number of the latest claim that came out empty. */
  const lastEmpty: Record<Lane, number> = { email: 0, push: 0, invitations: 0 };
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((...args: unknown[]) => {
    const text = args[0];
    const lane = typeof text === "string" && typeof args.at(-1) !== "function" ? CLAIMS.find(([, sql]) => sql.test(text))?.[0] : undefined;
    if (!lane) return query(...args);
    const n = ++begun;
    return (query(...args) as Promise<{ rows: unknown[] }>).then((r) => {
      if (r.rows.length === 0) lastEmpty[lane] = Math.max(lastEmpty[lane], n);
      return r;
    });
  }) as Db["query"];

  return {
    async drained(lane) {
      const mark = begun;
      // A wake-up after the mark, so that a claim begins after it even if the workers had nothing left to do.
      await query("SELECT pg_notify($1, '')", [OUTBOX_CHANNEL]);
      await expect
        .poll(() => lastEmpty[lane] > mark, {
          timeout: 15_000,
          interval: 20,
          message: `no ${lane} claim came out empty: the workers still find work, or claim with SQL outbox-watch.ts does not recognise`,
        })
        .toBe(true);
    },
  };
}
