import { ErrorCode, formatCents, SM, type FederationDoubtfulPayment, type FederationEndOutcome } from "@mutua/domain";
import { inTransaction, type Db, type Queryable, type Tx } from "../../db/pool";
import type { MovementRow } from "../ledger/ledger";
import type { Settings } from "../../settings";
import { audit } from "../platform/audit";
import { Refusal } from "../platform/errors";
import { callPeer } from "./peer-client";
import type { PeerNet } from "./peer-net";
import { tellOne, toTell, type Teller, type Which } from "./peer-outbox";
import { retried, returnHold, type PaymentRow } from "./payments";
import { incoming, lockedLinkFor } from "./payments-in";
import { signingKeyFor } from "./server-key";
import type { Signer } from "./signed-messages";

/**
 * Payments in doubt ended by the owners (docs/federation.md "Payments in doubt"). A payment the
 * payer's side prepared (its member's money held) stays in doubt while the other side does not
 * say what it did, and the recovery asks it again and again; if that server never comes back, the
 * money would be held for ever. Past the stated time (FEDERATION_DOUBT_DAYS), an owner of the
 * payer's side may end it: the hold goes back to the member, in one transaction with the
 * payment's new state (`ended`, which the recovery never asks about), and the other side is told,
 * again and again until it answers, like a change of terms. Its answer is recorded: it agrees (it
 * never made the payment, and from then on never will) or, had it made it, the conflict is stated
 * on both sides for the boards to settle, rather than anything paid twice or taken back.
 *
 * The association in the middle of a payment through it (through.ts) is in doubt the same way when
 * the next one stays silent: its owners end the payment it forwarded, the posting toward the next
 * association comes back to the clearing wallet of the one it came from, the payment from there is
 * recorded refused (its server, asking as it does, returns its member's money), and the next one
 * is told as above.
 */

type Outcome = FederationEndOutcome;

interface ViewRow {
  public_id: string;
  link_public_id: string;
  direction: "out" | "in";
  state: PaymentRow["state"];
  member: string | null;
  amount_cents: bigint | null;
  peer_amount_cents: bigint | null;
  created_at: Date;
  days: number;
  endable_at: Date;
  endable: boolean;
  ended_at: Date | null;
  ended_after_days: number | null;
  end_outcome: Outcome | null;
  forwarded_from: string | null;
}

/** The columns of a view row, from `fp` (a payment) and `l` (its link); `$1` is the stated days. */
const VIEW_COLUMNS = `fp.public_id, l.public_id AS link_public_id, fp.direction, fp.state,
  coalesce((SELECT m.name FROM wallets w JOIN members m ON m.id = w.member_id WHERE w.id = fp.wallet_id),
           (SELECT h.peer_member_name FROM federation_payments h WHERE h.id = fp.forward_of)) AS member,
  (SELECT coalesce(h.payer_association, hl.peer_name, '') FROM federation_payments h JOIN federation_links hl ON hl.id = h.link_id
    WHERE h.id = fp.forward_of) AS forwarded_from,
  fp.amount_cents, fp.peer_amount_cents, fp.created_at, floor(extract(epoch FROM now() - fp.created_at) / 86400)::int AS days,
  fp.created_at + make_interval(days => $1::int) AS endable_at,
  (fp.direction = 'out' AND fp.state = 'prepared' AND fp.created_at + make_interval(days => $1::int) <= now()) AS endable,
  fp.ended_at, fp.ended_after_days, fp.end_outcome`;

const view = (r: ViewRow): FederationDoubtfulPayment => ({
  id: r.public_id,
  linkId: r.link_public_id,
  direction: r.direction,
  member: r.member ?? "",
  amount: formatCents(r.amount_cents ?? 0n),
  peerAmount: formatCents(r.peer_amount_cents ?? 0n),
  createdAt: r.created_at.toISOString(),
  days: r.days,
  endableAt: r.endable_at.toISOString(),
  endable: r.endable,
  forwardedFrom: r.forwarded_from,
  ended: r.ended_at === null ? null : { at: r.ended_at.toISOString(), days: r.ended_after_days ?? 0, outcome: r.end_outcome ?? "waiting" },
});

/** How many payments the console lists at most: the owners act on a few, and the audit log keeps the rest. */
const LISTED = 200;

/**
 * The payments the owners may need to act on, newest first: this side's members' payments still
 * in doubt (their money held) and those it forwarded still in doubt, and the payments ended by
 * the owners of either side, with what became of them. A payment only in a known state is not listed.
 */
export async function paymentsInDoubt(db: Queryable, doubtDays: number): Promise<FederationDoubtfulPayment[]> {
  const { rows } = await db.query<ViewRow>(
    `SELECT ${VIEW_COLUMNS} FROM federation_payments fp JOIN federation_links l ON l.id = fp.link_id
      WHERE (fp.direction = 'out' AND fp.state = 'prepared') OR fp.ended_at IS NOT NULL
      ORDER BY fp.created_at DESC, fp.id DESC LIMIT $2`,
    [doubtDays, LISTED],
  );
  return rows.map(view);
}

async function paymentView(db: Queryable, id: bigint, doubtDays: number): Promise<FederationDoubtfulPayment> {
  const { rows } = await db.query<ViewRow>(`SELECT ${VIEW_COLUMNS} FROM federation_payments fp JOIN federation_links l ON l.id = fp.link_id WHERE fp.id = $2`, [
    doubtDays,
    id,
  ]);
  return view(rows[0]!);
}

/**
 * An owner ends a payment still in doubt past the stated days: the hold is returned (to this
 * side's member, clearing -> member, the same parts, its own idempotency key; for a payment
 * forwarded, to the clearing wallet of the association it came from) in the transaction that marks
 * it ended, with its audit entry and the row that tells the other side. Refused before the stated
 * time, for a payment whose end is known, and a second time: the payment's row is locked and must
 * still be prepared.
 */
export async function endPaymentInDoubt(
  net: PeerNet,
  db: Db,
  settings: Settings,
  memberId: bigint,
  linkId: string,
  paymentId: string,
): Promise<FederationDoubtfulPayment> {
  const doubtDays = settings.federation.doubtDays;
  const id = await retried(() =>
    inTransaction(db, async (tx) => {
      const { rows } = await tx.query<PaymentRow & { peer_name: string | null; age_days: number; endable: boolean }>(
        `SELECT fp.*, l.peer_name, floor(extract(epoch FROM now() - fp.created_at) / 86400)::int AS age_days,
           fp.created_at + make_interval(days => $3::int) <= now() AS endable
         FROM federation_payments fp JOIN federation_links l ON l.id = fp.link_id
         WHERE l.public_id = $1 AND fp.public_id = $2 AND fp.direction = 'out' FOR UPDATE OF fp`,
        [linkId, paymentId, doubtDays],
      );
      const row = rows[0];
      if (!row) throw new Refusal(ErrorCode.notFound, { id: SM.federationPaymentNotFound });
      if (row.state === "ended") throw new Refusal(ErrorCode.stateConflict, { id: SM.federationPaymentAlreadyEnded });
      if (row.state !== "prepared") throw new Refusal(ErrorCode.stateConflict, { id: SM.federationPaymentKnown });
      if (!row.endable) throw new Refusal(ErrorCode.stateConflict, { id: SM.federationPaymentTooRecent, values: { days: doubtDays } });
      const { back, forwardedFrom } =
        row.forward_of === null ? { back: await returnHold(tx, row, `end:${row.public_id}`), forwardedFrom: null } : await returnForwarded(tx, row);
      await tx.query(
        `UPDATE federation_payments SET state = 'ended', return_movement_id = $2, next_check_at = NULL, ended_at = now(), ended_by = $3,
           ended_after_days = $4, updated_at = now()
         WHERE id = $1`,
        [row.id, back.id, memberId, row.age_days],
      );
      await toTell(tx, row.link_id, "ending", String(row.id));
      await audit(tx, memberId, "federation.payment_ended", linkId, {
        peer: row.peer_name,
        payment: row.public_id,
        days: row.age_days,
        amount: formatCents(row.amount_cents!),
        peerAmount: formatCents(row.peer_amount_cents!),
        transaction: back.public_id,
        ...(forwardedFrom === null ? {} : { forwardedFrom }),
      });
      return { id: row.id, linkId: row.link_id };
    }),
  );
  await tellEnding(net, db, { linkId: id.linkId, kind: "ending", subject: String(id.id) });
  return paymentView(db, id.id, doubtDays);
}

/**
 * The hold of a payment forwarded (`onward`, its row on to the next association, locked) returned
 * as the next one's refusal would return it (through.ts): the posting back to the clearing wallet
 * of the association it came from, what this side holds of that one's currency lowered, and the
 * payment from there recorded refused, which its server learns when it asks next. Rows and links
 * locked in the order of every transaction that takes them.
 */
async function returnForwarded(tx: Tx, onward: PaymentRow): Promise<{ back: MovementRow; forwardedFrom: string }> {
  const { rows } = await tx.query<PaymentRow & { from_name: string | null }>(
    `SELECT fp.*, coalesce(fp.payer_association, l.peer_name) AS from_name
       FROM federation_payments fp JOIN federation_links l ON l.id = fp.link_id WHERE fp.id = $1 FOR UPDATE OF fp`,
    [onward.forward_of],
  );
  const held = rows[0]!;
  await tx.query("SELECT 1 FROM federation_links WHERE id IN ($1, $2) ORDER BY id FOR UPDATE", [onward.link_id, held.link_id]);
  const back = await returnHold(
    tx,
    { movement_id: held.movement_id, wallet_id: onward.wallet_id, memo: "", public_id: held.public_id },
    `end:${onward.public_id}`,
  );
  await tx.query("UPDATE federation_links SET held_cents = held_cents - $2 WHERE id = $1", [held.link_id, held.peer_amount_cents]);
  await tx.query("UPDATE federation_payments SET state = 'aborted', refusal = $2, updated_at = now() WHERE id = $1", [
    held.id,
    SM.federationPaymentEndedOnTheWay,
  ]);
  return { back, forwardedFrom: held.from_name ?? "" };
}

/**
 * The payer's side says its owners ended a payment: this side records it with what it had done
 * and answers that. Never seen, it is recorded aborted (refused if it arrives after all): it
 * agrees. Aborted, it agrees. Committed, its member was paid here while the payer was refused
 * there: the conflict is recorded (its audit log, the board's figures) for the boards to settle,
 * and nothing is moved. Told again (an answer lost), it answers the same and records nothing more.
 */
export async function paymentEndedByPeer(db: Db, signer: Signer, body: { paymentId: string; days: number }) {
  return inTransaction(db, async (tx) => {
    const link = await lockedLinkFor(tx, signer, body.paymentId);
    let seen = await incoming(tx, link.id, body.paymentId);
    if (!seen) {
      const { rows } = await tx.query<PaymentRow>(
        "INSERT INTO federation_payments (public_id, link_id, direction, state, memo) VALUES ($1, $2, 'in', 'aborted', '') RETURNING *",
        [body.paymentId, link.id],
      );
      seen = rows[0]!;
    }
    // Held here and forwarded: this side waits for the next one's word, and answers once it has it.
    if (seen.state === "held") return { state: "pending", reason: null } as const;
    const state = seen.state === "committed" ? "committed" : "aborted";
    if (seen.ended_at === null) {
      const outcome: Outcome = state === "committed" ? "conflict" : "agreed";
      await tx.query("UPDATE federation_payments SET ended_at = now(), ended_after_days = $2, end_outcome = $3, updated_at = now() WHERE id = $1", [
        seen.id,
        body.days,
        outcome,
      ]);
      await audit(tx, null, "federation.peer_payment_ended", link.public_id, {
        peer: link.peer_name,
        payment: body.paymentId,
        days: body.days,
        outcome,
        ...(seen.amount_cents === null ? {} : { amount: formatCents(seen.amount_cents), peerAmount: formatCents(seen.peer_amount_cents!) }),
      });
    }
    return { state, reason: seen.refusal } as const;
  });
}

/**
 * Tells the other side of one ended payment that it was ended (peer-outbox.ts claims its row), and
 * records its answer on the payment with its audit entry.
 */
export const endingTeller: Teller = async (tx, net, item) => {
  const { rows: found } = await tx.query<{
    id: bigint;
    public_id: string;
    ended_after_days: number;
    link_public_id: string;
    peer_name: string | null;
    peer_url: string;
    peer_key: Buffer;
  }>(
    `SELECT fp.id, fp.public_id, fp.ended_after_days, l.public_id AS link_public_id, l.peer_name, l.peer_url, l.peer_key
       FROM federation_payments fp JOIN federation_links l ON l.id = fp.link_id WHERE fp.id = $1 AND fp.state = 'ended' AND fp.end_outcome IS NULL`,
    [item.subject],
  );
  const p = found[0];
  if (!p) return "moot";
  const answer = await callPeer(net, await signingKeyFor(tx, p.peer_key), p.peer_url, p.peer_key.toString("base64url"), "peerPaymentEnded", {
    paymentId: p.public_id,
    days: p.ended_after_days,
  });
  // The other side forwarded it and does not know yet: told again later, until it does.
  if (answer.state === "pending") throw new Refusal(ErrorCode.unavailable, { id: SM.federationPeerUnreachable });
  const outcome: Outcome = answer.state === "committed" ? "conflict" : "agreed";
  await tx.query("UPDATE federation_payments SET end_outcome = $2, updated_at = now() WHERE id = $1", [p.id, outcome]);
  await audit(tx, null, "federation.peer_ending_answered", p.link_public_id, { peer: p.peer_name, payment: p.public_id, days: p.ended_after_days, outcome });
  return "told";
};

/** Tells one ending: the first due, or the given payment's whenever due. */
export const tellEnding = (net: PeerNet, db: Db, which: Which) => tellOne(net, db, { ending: endingTeller }, which);
