import { createHash, randomBytes } from "node:crypto";
import type { z } from "zod";
import { canonicalCrossPaymentMessage, convertCents, ErrorCode, formatCents, M, memoProblem, SM, splitPayment, type SubAccount } from "@mutua/domain";
import type { schemas } from "@mutua/domain/api/schemas";
import { inTransaction, type Db, type Queryable, type Tx } from "../../db/pool";
import { postMovementTx, retriedWhenAsked, type MovementRow } from "../ledger/ledger";
import { isPayersOwn, payerRefusal, requireSigner, sentCents, signatureRefusal } from "../payments/payments";
import { invalid, notFound, Refusal } from "../platform/errors";
import { ensureClearingWallet, type BackendRow, type WalletRow } from "../wallets/wallets";
import { callPeer, knownRefusal, PEER_REFUSALS, peerBaseUrl } from "./peer-client";
import { payTo, quoteFrom, type PeerAt } from "./peer-batches";
import type { PeerNet } from "./peer-net";
import { b64, fulfils } from "./conditions";
import { payerSide, type PayerSide } from "./payer-side";
import { commitPayment, holdPayment } from "./payments-out-together";
import type { HeldRow, PaymentRow } from "./payment-rows";
import { checkedQuote, linkAndPeer, linkOrRouteTo, quoteThroughLink, usable, type ActiveLink, type RouteRow } from "./quotes";

/**
 * Payments across a link (docs/federation.md "Paying across"): two-phase commit with the payee's
 * side as the last participant. The payer's side prepares first (its member's money held: member
 * -> clearing wallet, in its own ledger, by its own rules), then asks the payee's side, which
 * decides in one transaction of its own (clearing wallet -> member, or a refusal), so it is never
 * in doubt itself. The payer's side then commits (the hold stays, paid) or aborts (the hold comes
 * back). An answer lost leaves the payer's side prepared: it asks what became of the payment
 * (services/federation/recovery.ts), and the payee's side (payments-in.ts), asked about a payment
 * it never saw, answers aborted and from then on refuses it: never paid twice, never lost, never
 * held. To an association reached through a linked one, the payment goes to that one as its
 * payee's side (through.ts), under a condition only the association at the end can fulfil.
 */

type CrossPayBody = z.output<typeof schemas.payAcross.body>;
type CrossPayment = z.output<typeof schemas.payAcross.response>;
type PeerPaymentState = z.output<typeof schemas.peerPaymentState.response>;
type PeerQuote = z.output<typeof schemas.peerQuote.response>;

export { FIRST_CHECK_SECONDS, type PaymentRow } from "./payment-rows";

export const rateChanged = () => new Refusal(ErrorCode.stateConflict, { id: SM.federationRateChanged });

/** The sub-account a payment in credits: the one top-ups credit. */
export const creditKind = (backend: Pick<BackendRow, "kind">): SubAccount => (backend.kind === "custodial" ? "main" : "nant");

/** What makes two requests of a member's "the same payment across" for its idempotency key. */
const requestHash = (b: CrossPayBody, url: string) =>
  createHash("sha256")
    .update(JSON.stringify([b.from, url, b.walletId, b.amount, b.payerAmount, b.memo, b.requestId ?? null]))
    .digest("hex");

async function paymentByKey(db: Queryable, walletId: string, key: string): Promise<PaymentRow | null> {
  const { rows } = await db.query<PaymentRow>("SELECT * FROM federation_payments WHERE wallet_id = $1 AND idempotency_key = $2 AND direction = 'out'", [
    walletId,
    key,
  ]);
  return rows[0] ?? null;
}

/** How the member's money is held: a custodial account's one part, or a ledger wallet's split between mutual credit and pledged money. */
function holdParts(accounts: PayerSide["accounts"], amount: bigint): { account: SubAccount; amount: bigint }[] {
  const of = (k: SubAccount) => accounts.find((r) => r.kind === k);
  // The ledger checks the floors again under its locks.
  if (of("main")) return [{ account: "main", amount }];
  const cm = of("cm");
  const split = splitPayment(amount, { nant: of("nant")?.balance ?? 0n, cm: cm?.balance ?? 0n, cmFloor: cm?.floor ?? 0n }, { cm: 0n, cmCeiling: null });
  if (!split.ok) throw new Refusal(ErrorCode.insufficientBalance, { id: M.insufficientBalance });
  return (
    [
      { account: "cm", amount: split.split.cm },
      { account: "nant", amount: split.split.nant },
    ] as const
  ).filter((p) => p.amount > 0n);
}

/**
 * A member pays a member of the linked association at `server` (payer's side). Answered once the
 * other side made it, or refused with nothing held; "pending" when the other side's answer was
 * lost: the money stays held until it is known (a retry with the same key asks again).
 */
export async function payAcross(net: PeerNet, db: Db, me: bigint, body: CrossPayBody, now = new Date()): Promise<CrossPayment> {
  const url = peerBaseUrl(body.server);
  const hash = requestHash(body, url);
  const side = await payerSide(db, me, body.from, body.key);
  const payer = side?.payer ?? null;
  if (!side || !isPayersOwn(me, payer)) throw notFound();
  const existing = side.seen ? await paymentByKey(db, payer.id, body.key) : null;
  if (existing) {
    if (existing.request_hash !== hash) throw new Refusal(ErrorCode.idempotencyConflict, { id: M.idempotencyConflict });
    return answer(db, await settle(net, db, existing, "pay"));
  }
  const target = await linkOrRouteTo(db, url, side.backend);
  const link = usable(target.link);
  const amount = sentCents(body.amount);
  const problem = memoProblem(body.memo);
  if (problem) throw invalid({ memo: problem });
  const cannotSend = payerRefusal(payer);
  if (cannotSend) throw cannotSend;
  const signed = verifySignature(payer, body, url, now);
  const paymentId = `fp_${randomBytes(16).toString("base64url")}`;
  // The other side's word, now, before anything is held: its member, its rate, its limit (and,
  // through an association both trust, the payee side's condition for this payment). Its payment
  // checks them all again, under its locks.
  const at = target.at;
  const plan = target.route ? await planThrough(net, db, link, at, target.route, body, paymentId) : await planDirect(net, at, link, body, amount);
  const payerAmount = plan.payerAmount;
  const quote = plan.quote;

  // The link's first payment from this backend makes its clearing wallet.
  const clearing = target.clearing ?? (await ensureClearingWallet(db, side.backend, link));
  const parts = holdParts(side.accounts, payerAmount);
  let row: PaymentRow | HeldRow;
  try {
    row = await holdPayment(db, {
      movement: {
        kind: "payment",
        payerWalletId: payer.id,
        payeeWalletId: clearing,
        parts,
        senderMemo: body.memo,
        recipientMemo: "",
        idempotencyKey: body.key,
        initiatedBy: me,
        signedMessage: signed?.message ?? null,
        signature: signed?.signature ?? null,
      },
      row: {
        public_id: paymentId,
        link_id: link.id,
        wallet_id: payer.id,
        peer_wallet_id: body.walletId,
        peer_member_name: quote.payee.name,
        amount_cents: payerAmount,
        peer_amount_cents: plan.peerAmount,
        our_value_e4: link.our_value_e4,
        their_value_e4: link.their_value_e4,
        memo: body.memo,
        request_public_id: body.requestId ?? null,
        idempotency_key: body.key,
        request_hash: hash,
        condition: plan.condition,
        route_url: plan.route?.url ?? null,
        route_name: plan.route?.name ?? null,
        route_currency_symbol: plan.route?.currencySymbol ?? null,
        route_amount_cents: plan.route ? amount : null,
        route_via_value_e4: plan.route?.via ?? null,
        route_to_value_e4: plan.route?.to ?? null,
      },
    });
  } catch (e) {
    // The same key sent twice at once: the other request held the money (the database refused this
    // row, or the ledger found the key's movement made); answered as that request is, if it is the
    // same payment.
    const sameKey = (e as { code?: string }).code === "23505" || (e instanceof Refusal && e.msg.id === M.idempotencyConflict);
    const again = sameKey ? await paymentByKey(db, payer.id, body.key) : null;
    if (!again) throw e;
    if (again.request_hash !== hash) throw new Refusal(ErrorCode.idempotencyConflict, { id: M.idempotencyConflict });
    row = again;
  }
  // Held a moment ago across the link read above, active under the hold's lock: sent by it, and
  // answered from what was read already. (The other request's row, of the same key, is read again.)
  if (!("transaction_id" in row)) return answer(db, await settle(net, db, row, "pay"));
  const settled = await settle(net, db, row, "pay", { payerName: side.payerName, link, at });
  return answer(db, settled, { link, currencySymbol: side.currencySymbol, transactionId: row.transaction_id });
}

interface Plan {
  quote: PeerQuote;
  /** In the payer's currency, and in the link's other one. */
  payerAmount: bigint;
  peerAmount: bigint;
  condition: Buffer | null;
  route: { url: string; name: string; currencySymbol: string; via: bigint; to: bigint } | null;
}

/** A payment to the linked association's member: this side's conversion, then the other side's quote must say the same. */
async function planDirect(net: PeerNet, at: PeerAt, link: ActiveLink, body: CrossPayBody, amount: bigint): Promise<Plan> {
  const payerAmount = convertCents(amount, BigInt(link.their_value_e4), BigInt(link.our_value_e4));
  if (formatCents(payerAmount) !== body.payerAmount) throw rateChanged();
  const quote = checkedQuote(await quoteFrom(net, at, { walletId: body.walletId, amount: body.amount }), body.walletId);
  if (quote.peerAmount !== body.payerAmount || quote.amount !== body.amount) throw rateChanged();
  return { quote, payerAmount, peerAmount: amount, condition: null, route: null };
}

/**
 * A payment through the linked association that forwards to the payee's: its quote for this very
 * payment (the payee side's condition, the amount at each hop), checked against the route it told
 * and this side's own terms with it.
 */
async function planThrough(net: PeerNet, db: Db, link: ActiveLink, at: PeerAt, route: RouteRow, body: CrossPayBody, paymentId: string): Promise<Plan> {
  const { quote, through, payerAmount } = await quoteThroughLink(net, db, link, route, { walletId: body.walletId, amount: body.amount, paymentId }, at);
  if (quote.peerAmount !== body.payerAmount || quote.amount !== body.amount) throw rateChanged();
  if (!quote.condition) throw new Refusal(ErrorCode.unavailable, { id: SM.federationPeerUnverifiable });
  return {
    quote,
    payerAmount,
    peerAmount: through.amount,
    condition: Buffer.from(quote.condition, "base64url"),
    route: { url: route.url, name: route.name, currencySymbol: route.currency_symbol, via: through.via, to: through.to },
  };
}

/** A ledger wallet's payment must carry its key's signature, recent, over the payment's canonical text: the server cannot make one up. */
function verifySignature(payer: WalletRow, body: CrossPayBody, url: string, now: Date): { message: string; signature: string } | null {
  if (!payer.address) return null;
  const unsigned = signatureRefusal(body, now);
  if (unsigned) throw unsigned;
  const message = canonicalCrossPaymentMessage({
    from: body.from,
    server: url,
    to: body.walletId,
    amount: body.amount,
    payerAmount: body.payerAmount,
    memo: body.memo,
    requestId: body.requestId,
    key: body.key,
    at: body.at!, // signatureRefusal saw it
  });
  requireSigner(message, body.signature!, payer.address);
  return { message, signature: body.signature! };
}

/**
 * The member's answer for their payment: made, or still being asked about; a refused one is told as
 * its refusal. What it names of the link, the currency and the transaction is read, unless `known`.
 */
async function answer(
  db: Queryable,
  row: PaymentRow,
  known?: { link: Pick<ActiveLink, "peer_name" | "peer_currency_symbol">; currencySymbol: string; transactionId: string },
): Promise<CrossPayment> {
  if (row.state === "aborted") throw refusalOf(row.refusal);
  // Its owners ended it after the other side stayed silent past the stated time: the money came back.
  if (row.state === "ended") throw new Refusal(ErrorCode.stateConflict, { id: SM.federationPaymentEndedByOwners });
  const r = known
    ? { peer_name: known.link.peer_name, peer_currency_symbol: known.link.peer_currency_symbol, symbol: known.currencySymbol, public_id: known.transactionId }
    : (
        await db.query<{ peer_name: string | null; peer_currency_symbol: string | null; symbol: string; public_id: string }>({
          name: "federation-payment-answer",
          text: `SELECT l.peer_name, l.peer_currency_symbol, c.symbol, mv.public_id FROM federation_links l, movements mv JOIN currencies c ON c.id = mv.currency_id
            WHERE l.id = $1 AND mv.id = $2`,
          values: [row.link_id, row.movement_id],
        })
      ).rows[0]!;
  return {
    id: row.public_id,
    state: row.state === "committed" ? "committed" : "pending",
    association: row.route_name ?? r.peer_name ?? "",
    payee: { walletId: row.peer_wallet_id!, name: row.peer_member_name ?? "" },
    amount: formatCents(row.route_amount_cents ?? row.peer_amount_cents!),
    currencySymbol: row.route_currency_symbol ?? r.peer_currency_symbol ?? "",
    payerAmount: formatCents(row.amount_cents!),
    payerCurrencySymbol: r.symbol,
    transactionId: r.public_id,
  };
}

/** The refusal the other side gave, in the member's words when it is one of the payment's rules. */
export function refusalOf(reason: string | null): Refusal {
  const code = reason === null ? undefined : PEER_REFUSALS.get(reason);
  return code ? new Refusal(code, { id: reason! }) : new Refusal(ErrorCode.stateConflict, { id: SM.federationPaymentRefused });
}

/**
 * Brings a prepared payment to its end if the other side can say what it is: "pay" sends the
 * payment (the member's request, or its retry), "ask" only asks what became of it (the recovery,
 * which never makes a payment the member's request did not). Answers the row as it is then.
 */
export async function settle(
  net: PeerNet,
  db: Db,
  row: PaymentRow,
  how: "pay" | "ask",
  known?: { payerName: string; link: ActiveLink; at: PeerAt },
): Promise<PaymentRow> {
  if (row.state !== "prepared") return row;
  const { link, at } = known ?? (await linkAndPeer(db, row.link_id));
  // Across a link no longer active (ended, or replaced), a payment is only asked about, never sent:
  // the same two servers may have linked again, and the other side would make it on the new link.
  if (how === "pay" && link.state === "active") {
    try {
      const name = known?.payerName ?? (await payerNameOf(db, row.wallet_id!));
      const paid = await payTo(net, at, {
        paymentId: row.public_id,
        walletId: row.peer_wallet_id!,
        amount: formatCents(row.route_amount_cents ?? row.peer_amount_cents!),
        payerAmount: formatCents(row.amount_cents!),
        payer: { name },
        memo: row.memo,
        ...(row.request_public_id ? { requestId: row.request_public_id } : {}),
        // Through the linked association: the payee side's condition, and where the payment ends.
        ...(row.condition ? { condition: b64(row.condition) } : {}),
        ...(row.route_url ? { to: { url: row.route_url } } : {}),
      });
      // Still held on the way (the association in the middle waits for the payee's side's word).
      if (paid.state === "pending") return await postpone(db, row);
      const f = row.condition ? fulfils(row.condition, paid.fulfillment) : null;
      // A conditioned payment is made only with the fulfilment: anything else is asked about.
      if (!row.condition || f) return await finish(db, row, "committed", null, f);
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      // Refused, unreachable or unverifiable: what the other side holds is the truth; ask it.
    }
  }
  let state: PeerPaymentState;
  try {
    state = await callPeer(net, at.key, at.url, at.keyId, "peerPaymentState", { paymentId: row.public_id });
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    return postpone(db, row);
  }
  if (state.state === "aborted") return finish(db, row, "aborted", knownRefusal(state.reason), null);
  const f = row.condition ? fulfils(row.condition, state.fulfillment) : null;
  if (state.state === "pending" || (row.condition && !f)) return postpone(db, row);
  // Their reason is kept only when it is one of this server's own refusals: it is told to the member.
  return finish(db, row, "committed", null, f);
}

async function payerNameOf(db: Queryable, walletId: string): Promise<string> {
  const { rows } = await db.query<{ name: string }>("SELECT m.name FROM wallets w JOIN members m ON m.id = w.member_id WHERE w.id = $1", [walletId]);
  return rows[0]?.name ?? "";
}

/**
 * At most this long between two questions about a payment in doubt (seconds). Through an
 * association both trust the questions chain (A asks B, which asks C): at 30 s each, a payment
 * could stay in doubt a minute after every server is back; at 15, well within it.
 */
export const MOST_BETWEEN_CHECKS = 15;

/** Asked again later, a little later each time: 5 s, 10 s, then every MOST_BETWEEN_CHECKS. */
export async function postpone(db: Queryable, row: PaymentRow): Promise<PaymentRow> {
  const { rows } = await db.query<PaymentRow>(
    `UPDATE federation_payments SET checks = checks + 1, next_check_at = now() + make_interval(secs => least(5 * power(2, least(checks, 4)), $2)), updated_at = now()
      WHERE id = $1 AND state = 'prepared' RETURNING *`,
    [row.id, MOST_BETWEEN_CHECKS],
  );
  return rows[0] ?? (await reread(db, row));
}

export const reread = async (db: Queryable, row: PaymentRow) =>
  (await db.query<PaymentRow>("SELECT * FROM federation_payments WHERE id = $1", [row.id])).rows[0]!;

/**
 * The payer's side ends a prepared payment as the other side ended it: committed (the hold is the
 * payment; what this side holds of the other's currency goes down by its amount in it), or
 * aborted (the hold returned to the member, clearing -> member, the same parts). Once only,
 * whoever gets there first: the row is locked and must still be prepared.
 */
async function finish(db: Db, row: PaymentRow, state: "committed" | "aborted", reason: string | null, f: Buffer | null): Promise<PaymentRow> {
  if (state === "committed") return (await commitPayment(db, row.id, f)) ?? reread(db, row);
  return retried(() =>
    inTransaction(db, async (tx) => {
      const { rows } = await tx.query<PaymentRow>("SELECT * FROM federation_payments WHERE id = $1 AND state = 'prepared' FOR UPDATE", [row.id]);
      const current = rows[0];
      if (!current) return reread(tx, row);
      const back = await returnHold(tx, current);
      return (
        await tx.query<PaymentRow>(
          "UPDATE federation_payments SET state = 'aborted', refusal = $2, return_movement_id = $3, next_check_at = NULL, updated_at = now() WHERE id = $1 RETURNING *",
          [current.id, reason, back.id],
        )
      ).rows[0]!;
    }),
  );
}

/** A transaction tried again when PostgreSQL asks to (a deadlock, a serialisation failure): nothing of it was written. */
export const retried = <T>(run: () => Promise<T>): Promise<T> => retriedWhenAsked(run, { keyRace: false });

/** The hold, back from the clearing wallet to the member, part for part, under its own idempotency key. */
export async function returnHold(
  tx: Tx,
  row: Pick<PaymentRow, "movement_id" | "wallet_id" | "memo" | "public_id">,
  idempotencyKey = `return:${row.public_id}`,
): Promise<MovementRow> {
  const { rows: parts } = await tx.query<{ kind: SubAccount; amount: bigint; clearing: string }>(
    `SELECT a.kind, p.amount, mv.payee_wallet_id AS clearing FROM postings p JOIN accounts a ON a.id = p.account_id JOIN movements mv ON mv.id = p.movement_id
      WHERE p.movement_id = $1 AND a.wallet_id = mv.payee_wallet_id ORDER BY a.kind`,
    [row.movement_id],
  );
  const { movement } = await postMovementTx(tx, {
    kind: "payment",
    payerWalletId: parts[0]!.clearing,
    payeeWalletId: row.wallet_id!,
    parts: parts.map((p) => ({ account: p.kind, amount: p.amount })),
    senderMemo: "",
    recipientMemo: row.memo,
    idempotencyKey,
    initiatedBy: null,
  });
  return movement;
}
