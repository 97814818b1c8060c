import { SM } from "@mutua/domain";
import { inTransaction, type Db, type Tx } from "../../db/pool";
import type { DueStep } from "../platform/due-work";
import { Refusal } from "../platform/errors";
import type { PeerNet } from "./peer-net";

/**
 * News for a linked server, told until it is acknowledged (docs/federation.md "Told until
 * received"). What one side decides alone (its terms changed, a payment in doubt its owners ended,
 * a link ended, a new key or address) is saved on its side first, in the transaction that decides
 * it, with a row in `federation_outbox`; then told at once, and, unanswered (the other server
 * down) or refused, again by every instance's due work (services/platform/due-work.ts), later each
 * time, until the other side answers. Deciding never waits for the other server, and nothing
 * decided is lost when it is away.
 *
 * Each kind of news has its teller: it reads what the row stands for, calls the other server and
 * records the answer, all in the transaction that claimed the row. The row is claimed `FOR UPDATE
 * SKIP LOCKED`, so no two instances tell the same news at once, and one that dies mid-way leaves
 * it due. The row, not the link, is what is held while the other server is waited for: payments
 * across take the link's row lock, which a teller takes only to record an answer.
 */

/** The kinds of news, each with its teller. */
export type OutboxKind = "terms" | "ending" | "routes" | "key" | "link_ended" | "address" | "settlement";

/** A piece of news due to be told, as its teller gets it. */
export interface OutboxItem {
  /** The link's internal id. */
  readonly linkId: string;
  readonly kind: OutboxKind;
  /** What it is about within the link ("" when a link has one of its kind at a time). */
  readonly subject: string;
  readonly attempts: number;
}

/**
 * Tells one piece of news and records the answer, in the claiming transaction. `told`: the row
 * goes; `again`: newer news of the same row waits (terms changed again meanwhile), due again at
 * once; `moot`: nothing left to tell (the link replaced, the payment's answer recorded), the row
 * goes. A refusal or no answer is thrown: the row is tried again later.
 */
export type Teller = (tx: Tx, net: PeerNet, item: OutboxItem) => Promise<"told" | "again" | "moot">;

export type Tellers = Partial<Record<OutboxKind, Teller>>;

/** The first wait after a failed try, doubled at each failure up to the longest. */
const FIRST_RETRY_SECONDS = 10;
const LONGEST_RETRY_SECONDS = 15 * 60;

/** How long to wait after the `attempts`th failure in a row: 10 s, 20 s, 40 s… then every 15 minutes. */
export const retryAfterSeconds = (attempts: number) => Math.min(LONGEST_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2 ** Math.min(attempts, 20));

/**
 * Saves a piece of news to tell, in the caller's transaction (the one that decided it). News
 * already waiting for the same link, kind and subject stays as it is: its teller reads the newest
 * state when its turn comes.
 */
export async function toTell(tx: Tx, linkId: string | bigint, kind: OutboxKind, subject = ""): Promise<void> {
  await tx.query("INSERT INTO federation_outbox (link_id, kind, subject) VALUES ($1, $2, $3) ON CONFLICT (link_id, kind, subject) DO NOTHING", [
    linkId,
    kind,
    subject,
  ]);
}

/** What to tell: the first row due of the tellers' kinds, or one given row whenever due (an owner's decision is told at once). */
export type Which = "due" | { linkId: string | bigint; kind: OutboxKind; subject?: string };

/**
 * Tells one piece of news, in a transaction of its own; true when it found a row (there may be
 * more). Only rows of the given tellers' kinds are claimed.
 */
export async function tellOne(net: PeerNet, db: Db, tellers: Tellers, which: Which): Promise<boolean> {
  const kinds = Object.keys(tellers);
  return inTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ id: string; link_id: string; kind: OutboxKind; subject: string; attempts: number }>(
      which === "due"
        ? `SELECT id, link_id, kind, subject, attempts FROM federation_outbox WHERE next_try_at <= now() AND kind = ANY($1)
           ORDER BY next_try_at LIMIT 1 FOR UPDATE SKIP LOCKED`
        : "SELECT id, link_id, kind, subject, attempts FROM federation_outbox WHERE link_id = $1 AND kind = $2 AND subject = $3 FOR UPDATE SKIP LOCKED",
      which === "due" ? [kinds] : [which.linkId, which.kind, which.subject ?? ""],
    );
    const row = rows[0];
    if (!row) return false;
    const teller = tellers[row.kind];
    // A row of a kind the caller does not tell (a given row's kind without its teller): left as it is.
    if (!teller) return false;
    let outcome;
    try {
      outcome = await teller(tx, net, { linkId: row.link_id, kind: row.kind, subject: row.subject, attempts: row.attempts });
    } catch (e) {
      // A refusal, no answer, or an answer not signed by its key: all mean "not told yet". A
      // failure of this transaction's own (the database gone) fails the update below too, and
      // the row stays as it was.
      const reason = e instanceof Refusal ? e.msg.id : SM.federationPeerUnreachable;
      await tx.query("UPDATE federation_outbox SET attempts = attempts + 1, next_try_at = now() + make_interval(secs => $2), last_error = $3 WHERE id = $1", [
        row.id,
        retryAfterSeconds(row.attempts),
        reason,
      ]);
      return true;
    }
    if (outcome === "again") await tx.query("UPDATE federation_outbox SET attempts = 0, next_try_at = now(), last_error = NULL WHERE id = $1", [row.id]);
    else await tx.query("DELETE FROM federation_outbox WHERE id = $1", [row.id]);
    return true;
  });
}

/** The due work's step: one piece of news due, told (or its next try pushed back). */
export function outboxStep(net: PeerNet, db: Db, tellers: Tellers): DueStep {
  return { name: "news told to linked servers", step: () => tellOne(net, db, tellers, "due") };
}
