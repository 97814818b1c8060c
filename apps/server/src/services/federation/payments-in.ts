import type { z } from "zod";
import { convertCents, ErrorCode, formatCents, M, memoProblem, PEER_ASSOCIATION_NAME_MAX, PEER_MEMBER_NAME_MAX, peerName, SM } from "@mutua/domain";
import type { schemas } from "@mutua/domain/api/schemas";
import { inTransaction, type Db, type Queryable, type Tx } from "../../db/pool";
import { postMovementTx } from "../ledger/ledger";
import { lockRequestForPayment, markRequestPaid } from "../payments/payment-requests";
import { sentCents } from "../payments/payments";
import { Refusal } from "../platform/errors";
import { ensureClearingWallet, getBackend } from "../wallets/wallets";
import { b64, conditionOf, fulfiller, fulfils } from "./conditions";
import { creditKind, rateChanged, refusalOf, retried, type PaymentRow } from "./payments";
import { LINK_COLUMNS, payable, payeeRows, usable, withinTrust, type ActiveLink, type PayeeRow } from "./quotes";
import type { Signer } from "./signed-messages";

/**
 * The payee's side of a payment across (docs/federation.md "The exchange"): it decides in one
 * transaction of its own, under the link's lock, and answers the same whenever asked again, so it
 * is never in doubt. Paid through an association both trust, it decides under the payment's
 * condition and answers its fulfilment.
 */

export type PeerPayBody = z.output<typeof schemas.peerPay.body>;
export type PeerPaid = z.output<typeof schemas.peerPay.response>;
type PeerPaymentState = z.output<typeof schemas.peerPaymentState.response>;

/**
 * The link a signed message about payment `paymentId` is for, locked: the payments in and the
 * questions about them take their turns on it. The same two servers may have linked again after a
 * link ended (or was replaced), so one key may have several links: the one that holds that payment,
 * else the key's active link (a new payment is made there, and one asked about before it arrived
 * is recorded there), else its newest ended or replaced link. An ended or replaced link is asked
 * about its payments still (the server that held them may be waiting to know), and pays none; a
 * payment across it is never sent again (`settle` only asks), so a payment of an old link is never
 * made on the new one.
 */
export async function lockedLinkFor(tx: Tx, signer: Signer, paymentId: string): Promise<ActiveLink> {
  const { rows } = await tx.query<ActiveLink>({
    name: "federation-link-locked-for",
    text: `SELECT ${LINK_COLUMNS} FROM federation_links l WHERE peer_key = $1 AND state IN ('active', 'ended', 'replaced')
      ORDER BY EXISTS (SELECT 1 FROM federation_payments fp WHERE fp.link_id = l.id AND fp.direction = 'in' AND fp.public_id = $2) DESC,
               state = 'active' DESC, id DESC
      LIMIT 1 FOR UPDATE`,
    values: [signer.publicKey, paymentId],
  });
  if (!rows[0]) throw new Refusal(ErrorCode.notFound, { id: SM.federationNotLinked });
  return rows[0];
}

/**
 * For a batch of payments arriving over the link of `key` (payments-in-together.ts,
 * forward-holds.ts): its active link, locked, or none; and which of `paymentIds` this side has a
 * row for in from any link of that key, read once the lock is held, so that the rows of the batch
 * before are seen.
 */
export async function lockedForBatch(tx: Tx, key: Buffer, paymentIds: string[]): Promise<{ link: ActiveLink | null; known: Set<string> }> {
  const { rows } = await tx.query<ActiveLink>({
    name: "federation-link-lock-of-key",
    text: `SELECT ${LINK_COLUMNS} FROM federation_links WHERE peer_key = $1 AND state = 'active' FOR UPDATE`,
    values: [key],
  });
  if (!rows[0]) return { link: null, known: new Set() };
  const { rows: seen } = await tx.query<{ public_id: string }>({
    name: "federation-payments-seen",
    text: `SELECT fp.public_id FROM federation_links l JOIN federation_payments fp ON fp.link_id = l.id
            WHERE l.peer_key = $1 AND fp.direction = 'in' AND fp.public_id = ANY($2)`,
    values: [key, paymentIds],
  });
  return { link: rows[0], known: new Set(seen.map((r) => r.public_id)) };
}

export async function incoming(tx: Queryable, linkId: string | bigint, paymentId: string): Promise<PaymentRow | null> {
  const { rows } = await tx.query<PaymentRow>("SELECT * FROM federation_payments WHERE link_id = $1 AND direction = 'in' AND public_id = $2", [
    linkId,
    paymentId,
  ]);
  return rows[0] ?? null;
}

/**
 * The payee's side makes a payment in, or refuses it, in one transaction: the link locked, every
 * rule checked (on at both ends, the rate, the trust limit, the payee, the request it pays), the
 * clearing wallet -> member movement posted and what this side holds of the payer's currency
 * raised. A refusal is recorded too, so that the same payment asked again, or asked about, is
 * answered the same. Alone in its transaction: payments in that arrive together are made together
 * (payments-in-together.ts), and this is how each is made when it comes alone, or when its batch
 * could not decide it as it would be decided alone.
 */
export async function paymentInAlone(db: Db, signer: Signer, body: PeerPayBody): Promise<PeerPaid | Refusal> {
  // The payer's name, shown to this side's member: by the rules of members' names here, or the payment is refused.
  const payerName = peerName(body.payer.name, PEER_MEMBER_NAME_MAX);
  return retried(() =>
    inTransaction(db, async (tx): Promise<PeerPaid | Refusal> => {
      const link = await lockedLinkFor(tx, signer, body.paymentId);
      const seen = await incoming(tx, link.id, body.paymentId);
      if (seen) return answerSeen(seen, body);
      // Nothing new crosses a link that ended, or that a newer link replaced.
      if (link.state === "ended") throw new Refusal(ErrorCode.stateConflict, { id: SM.federationLinkEnded });
      if (link.state !== "active") throw new Refusal(ErrorCode.notFound, { id: SM.federationNotLinked });
      await tx.query("SAVEPOINT payment_in");
      try {
        return await makePaymentIn(tx, link, body, payerName);
      } catch (e) {
        if (!(e instanceof Refusal)) throw e;
        await tx.query("ROLLBACK TO SAVEPOINT payment_in");
        await tx.query(
          `INSERT INTO federation_payments (public_id, link_id, direction, state, peer_member_name, memo, refusal)
         VALUES ($1, $2, 'in', 'aborted', $3, '', $4)`,
          [body.paymentId, link.id, payerName, e.msg.id],
        );
        return e;
      }
    }),
  );
}

/** The same payment sent again: answered from its row, as it was the first time. */
function answerSeen(seen: PaymentRow, body: PeerPayBody): PeerPaid | Refusal {
  if (seen.state === "aborted") return refusalOf(seen.refusal);
  const same = seen.wallet_id === body.walletId && formatCents(seen.amount_cents!) === body.amount && formatCents(seen.peer_amount_cents!) === body.payerAmount;
  if (!same) return new Refusal(ErrorCode.idempotencyConflict, { id: M.idempotencyConflict });
  return {
    state: "committed",
    amount: formatCents(seen.amount_cents!),
    payerAmount: formatCents(seen.peer_amount_cents!),
    ...(seen.fulfillment ? { fulfillment: b64(seen.fulfillment) } : {}),
  };
}

/** A payment in that passed every rule checked before its movement: its amounts, its payee, its fulfilment (through an association both trust). */
export interface CheckedPaymentIn {
  amount: bigint;
  payerAmount: bigint;
  payerName: string;
  association: string | null;
  payee: { name: string; backend_id: string };
  fulfillment: Buffer | null;
}

/**
 * Every rule of a payment in that needs no write, in the order a refusal is told: on at both ends,
 * the amount, the rate, the memo, the trust limit (what this side holds of the payer's currency,
 * `held`, with this payment), the condition, the names, the payee (its wallet's row, read under
 * the link's lock). `fulfil` makes this side's fulfilments (read when the payment has a condition).
 */
export function checkedPaymentIn(
  link: ActiveLink,
  body: PeerPayBody,
  payerName: string | null,
  held: bigint,
  payee: PayeeRow | undefined,
  fulfil: ((paymentId: string) => Buffer) | null,
): CheckedPaymentIn {
  if (payerName === null) throw new Refusal(ErrorCode.validation, { id: SM.federationPeerName });
  usable(link);
  const amount = sentCents(body.amount);
  const payerAmount = convertCents(amount, BigInt(link.our_value_e4), BigInt(link.their_value_e4));
  if (formatCents(payerAmount) !== body.payerAmount) throw rateChanged();
  if (memoProblem(body.memo)) throw new Refusal(ErrorCode.validation, { id: M.invalidRequest });
  withinTrust({ ...link, held_cents: String(held) }, payerAmount);
  // Paid through an association both trust: this side's own condition for this payment, or none.
  const fulfillment = body.condition === undefined ? null : fulfil!(body.paymentId);
  if (fulfillment && !fulfils(Buffer.from(body.condition!, "base64url"), b64(fulfillment))) {
    throw new Refusal(ErrorCode.stateConflict, { id: SM.federationPaymentRefused });
  }
  const association = body.payer.association === undefined ? null : peerName(body.payer.association, PEER_ASSOCIATION_NAME_MAX);
  if (body.payer.association !== undefined && association === null) throw new Refusal(ErrorCode.validation, { id: SM.federationPeerName });
  return { amount, payerAmount, payerName, association, payee: payable(payee), fulfillment };
}

async function makePaymentIn(tx: Tx, link: ActiveLink, body: PeerPayBody, payerName: string | null): Promise<PeerPaid> {
  const payees = await payeeRows(tx, [body.walletId]);
  const fulfil = body.condition === undefined ? null : await fulfiller(tx);
  const { amount, payerAmount, association, payee, fulfillment } = checkedPaymentIn(
    link,
    body,
    payerName,
    BigInt(link.held_cents),
    payees.get(body.walletId),
    fulfil,
  );
  const backend = (await getBackend(tx, payee.backend_id))!;
  const clearing = await ensureClearingWallet(tx, backend, link);
  let recipientMemo = body.memo;
  if (body.requestId) {
    const locked = await lockRequestForPayment(tx, body.requestId, {
      payerWalletId: clearing,
      payeeWalletId: body.walletId,
      amount,
      key: body.paymentId,
      recipientMemo: body.memo,
      signed: false,
    });
    recipientMemo = locked.recipientMemo;
  }
  const { movement } = await postMovementTx(tx, {
    kind: "payment",
    payerWalletId: clearing,
    payeeWalletId: body.walletId,
    parts: [{ account: creditKind(backend), amount }],
    senderMemo: "",
    recipientMemo,
    idempotencyKey: body.paymentId,
    initiatedBy: null,
  });
  if (body.requestId) await markRequestPaid(tx, body.requestId, movement);
  await tx.query("UPDATE federation_links SET held_cents = held_cents + $2, updated_at = updated_at WHERE id = $1", [link.id, payerAmount]);
  await tx.query(
    `INSERT INTO federation_payments (public_id, link_id, direction, state, wallet_id, peer_member_name, amount_cents, peer_amount_cents,
       our_value_e4, their_value_e4, memo, request_public_id, movement_id, condition, fulfillment, payer_association)
     VALUES ($1, $2, 'in', 'committed', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [
      body.paymentId,
      link.id,
      body.walletId,
      payerName,
      amount,
      payerAmount,
      link.our_value_e4,
      link.their_value_e4,
      recipientMemo,
      body.requestId ?? null,
      movement.id,
      fulfillment ? conditionOf(fulfillment) : null,
      fulfillment,
      association,
    ],
  );
  return {
    state: "committed",
    amount: formatCents(amount),
    payerAmount: formatCents(payerAmount),
    ...(fulfillment ? { fulfillment: b64(fulfillment) } : {}),
  };
}

/**
 * What became of a payment in, for the payer's side that lost the answer. One this side never
 * saw is recorded aborted first: the payment, if it is still on its way, is refused when it comes.
 */
export async function paymentStateForPeer(db: Db, signer: Signer, body: { paymentId: string }): Promise<PeerPaymentState> {
  return inTransaction(db, async (tx) => {
    const link = await lockedLinkFor(tx, signer, body.paymentId);
    const seen = await incoming(tx, link.id, body.paymentId);
    if (seen) {
      // Held by this side, which forwards it and waits for the next one's word (through.ts).
      if (seen.state === "held") {
        // Asked about it: this side's recovery asks the next hop now rather than at its next turn.
        await tx.query("UPDATE federation_payments SET next_check_at = LEAST(next_check_at, now()) WHERE forward_of = $1 AND state = 'prepared'", [seen.id]);
        return { state: "pending", reason: null };
      }
      if (seen.state !== "committed") return { state: "aborted", reason: seen.refusal };
      return { state: "committed", reason: null, ...(seen.fulfillment ? { fulfillment: b64(seen.fulfillment) } : {}) };
    }
    await tx.query("INSERT INTO federation_payments (public_id, link_id, direction, state, memo) VALUES ($1, $2, 'in', 'aborted', '')", [
      body.paymentId,
      link.id,
    ]);
    return { state: "aborted", reason: null };
  });
}
