import type { Db } from "../../db/pool";
import type { PeerNet } from "./peer-net";
import { settle, type PaymentRow } from "./payments";
import { settleForward } from "./through";

/**
 * The recovery of payments across left in doubt (docs/federation.md "Recovery"): a payment this
 * side prepared (its member's money held) whose end it does not know, because its server or the
 * other's stopped, or an answer was lost, is asked about until the other side says: committed
 * (kept) or aborted (returned). Only the payer's side is ever in doubt: the payee's side decides in
 * one transaction. Every instance runs it; a payment is claimed with `FOR UPDATE SKIP LOCKED` and
 * a lease (its next check pushed ahead), so two instances never ask about it at once and one that
 * dies mid-way leaves it due again soon. Nothing is held in memory: a restart resumes from the table.
 */

/** How often an instance looks for payments due. */
const LOOK_EVERY_MS = 5_000;
/** A claim's lease: past two calls to the other server (10 s each at most). */
const LEASE_SECONDS = 30;
/** Payments asked about per look. */
const BATCH = 20;

/** Asks about the prepared payments due now, once each; answers how many it asked about. */
export async function recoverPayments(net: PeerNet, db: Db): Promise<number> {
  const { rows } = await db.query<PaymentRow>(
    `UPDATE federation_payments SET next_check_at = now() + make_interval(secs => $1)
      WHERE id IN (SELECT id FROM federation_payments WHERE state = 'prepared' AND next_check_at <= now()
                    ORDER BY next_check_at LIMIT $2 FOR UPDATE SKIP LOCKED)
      RETURNING *`,
    [LEASE_SECONDS, BATCH],
  );
  // A payment this side forwards (through.ts) is asked about as its own: C's word ends both its rows.
  for (const row of rows) await (row.forward_of ? settleForward(net, db, row, "ask") : settle(net, db, row, "ask"));
  return rows.length;
}

export interface RecoveryLog {
  error(obj: unknown, msg: string): void;
}

/** Looks at start and then on a timer that never keeps the process alive; a look still running is not started again. Returns the stop. */
export function scheduleRecovery(net: PeerNet, db: Db, log: RecoveryLog): () => void {
  let running = false;
  const look = () => {
    if (running) return;
    running = true;
    recoverPayments(net, db)
      .catch((err: unknown) => log.error({ err }, "recovery of payments across failed"))
      .finally(() => (running = false));
  };
  look();
  const timer = setInterval(look, LOOK_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
