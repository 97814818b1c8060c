import { randomBytes } from "node:crypto";
import {
  ErrorCode,
  M,
  MAX_AMOUNT_CENTS,
  MAX_AMOUNT_TEXT,
  formatCents,
  memoProblem,
  parseApiAmount,
  type PaymentRequestStatus,
  type PaymentRequestView,
  SM,
} from "@mutua/domain";
import { inTransaction, type Db, type Queryable, type Tx } from "../../db/pool";
import type { Settings } from "../../settings";
import { Refusal, invalid } from "../platform/errors";
import type { MovementRow } from "../ledger/ledger";
import { hit } from "../platform/rate-limit";
import { tillWallet } from "../shops/tills";
import { memberSinceSql, nameHint } from "../members/name-hints";
import { crossPartyName } from "../ledger/party-name";

/**
 * Payment requests: a payee asks for an exact amount into one of their wallets. Its
 * public id goes into the QR code and the link; whoever holds it may read and pay it. The first
 * payment marks it paid in the movement's own transaction (payRequestTx), so it is paid at most
 * once whatever the number of payers and server instances.
 */

interface Row {
  public_id: string;
  wallet_id: string;
  amount: bigint;
  sender_memo: string;
  recipient_memo: string;
  status: PaymentRequestStatus;
  expires_at: Date;
  created_at: Date;
  movement_id: bigint | null;
  payer_wallet_id: string | null;
  paid_at: Date | null;
  /** The one member an ask for money is made of (services/payments/asks.ts); null for a till's request. */
  asked_member_id: bigint | null;
  /** Still open past its expiry, by the database's clock (the one every instance shares). */
  lapsed: boolean;
}

export const requestNotFound = () => new Refusal(ErrorCode.notFound, { id: SM.paymentRequestNotFound });

/** The status a row has now: one left open past its expiry is expired, whether or not a write said so. */
const statusOf = (r: Pick<Row, "status" | "lapsed">): PaymentRequestStatus => (r.lapsed ? "expired" : r.status);
const LAPSED = "(r.status = 'open' AND r.expires_at <= now()) AS lapsed";

/** Why a request that is not open cannot be paid (or cancelled), as the payer reads it. */
const CLOSED_MESSAGE = {
  paid: SM.paymentRequestPaid,
  expired: SM.paymentRequestExpired,
  cancelled: SM.paymentRequestCancelled,
  declined: SM.askDeclined,
} as const;
const closedRefusal = (status: Exclude<PaymentRequestStatus, "open">) => new Refusal(ErrorCode.stateConflict, { id: CLOSED_MESSAGE[status] });

export interface NewPaymentRequest {
  walletId: string;
  amount: string;
  senderMemo: string;
  recipientMemo: string;
  expiresInMinutes: number;
}

/** Open requests one wallet may have at once: a till asks one customer at a time, a busy one a few. */
export const OPEN_REQUESTS_PER_WALLET = 20;

/**
 * A new request. Each one is a row that lives up to a day, so they are budgeted: per member (the
 * rate limit, shared by every instance) and per wallet (open ones at once, counted under the
 * wallet row's lock so that simultaneous creations cannot all pass the count).
 */
export async function createPaymentRequest(db: Db, s: Settings, me: bigint, input: NewPaymentRequest): Promise<PaymentRequestView> {
  await hit(db, `payment-request:member:${me}`, s.limits.paymentRequestPerMember);
  // The wallet's till: its owner or a cashier of it; anybody else's wallet (or the association's) does not exist.
  const wallet = await tillWallet(db, me, input.walletId);
  if (wallet.status !== "active") throw new Refusal(ErrorCode.inactiveAccount, { id: M.targetInactive });
  // A frozen till would show a code that every customer's payment is then refused at.
  if (wallet.frozen) throw new Refusal(ErrorCode.accountFrozen, { id: SM.tillFrozen });
  const cents = parseApiAmount(input.amount);
  if (cents === null || cents <= 0n) throw invalid({ amount: { id: M.amountRequestNotPositive } });
  if (cents > MAX_AMOUNT_CENTS) throw invalid({ amount: { id: M.amountTooLarge, values: { maxValue: MAX_AMOUNT_TEXT } } });
  for (const field of ["senderMemo", "recipientMemo"] as const) {
    // The memo rules of a payment: the payment made from this request will carry them.
    const problem = memoProblem(input[field]);
    if (problem) throw invalid({ [field]: problem });
  }
  const publicId = `pr_${randomBytes(16).toString("base64url")}`;
  await inTransaction(db, async (tx) => {
    // FOR NO KEY UPDATE: a payment's key-share lock on the wallet does not wait for it.
    await tx.query("SELECT 1 FROM wallets WHERE id = $1 FOR NO KEY UPDATE", [wallet.id]);
    const { rows } = await tx.query<{ open: number }>(
      "SELECT count(*)::int AS open FROM payment_requests WHERE wallet_id = $1 AND status = 'open' AND expires_at > now()",
      [wallet.id],
    );
    if (rows[0]!.open >= OPEN_REQUESTS_PER_WALLET) throw new Refusal(ErrorCode.stateConflict, { id: SM.paymentRequestsTooMany });
    await tx.query(
      `INSERT INTO payment_requests (public_id, wallet_id, amount, sender_memo, recipient_memo, expires_at, created_by)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(mins => $6), $7)`,
      [publicId, wallet.id, cents, input.senderMemo, input.recipientMemo, input.expiresInMinutes, me],
    );
  });
  return (await getPaymentRequest(db, me, publicId))!;
}

/** A request as `me` sees it: anybody signed in holding the id reads what to pay; its till (owner, cashiers) also who paid. */
export async function getPaymentRequest(db: Queryable, me: bigint, publicId: string): Promise<PaymentRequestView | null> {
  const { rows } = await db.query<
    Row & {
      member_id: bigint;
      by_cashier: boolean;
      payee_name: string;
      symbol: string;
      tx_id: string | null;
      payer_name: string | null;
      payer_since: string | null;
    }
  >(
    `SELECT r.*, ${LAPSED}, w.member_id, pm.name AS payee_name, c.symbol, m.public_id AS tx_id, coalesce(payer.name, ${crossPartyName("m.id", "pw")}) AS payer_name,
       ${memberSinceSql("payer")} AS payer_since,
       EXISTS (SELECT 1 FROM wallet_cashiers k WHERE k.wallet_id = r.wallet_id AND k.member_id = $2) AS by_cashier
       FROM payment_requests r
       JOIN wallets w ON w.id = r.wallet_id
       JOIN members pm ON pm.id = w.member_id
       JOIN backends b ON b.id = w.backend_id
       JOIN currencies c ON c.id = b.currency_id
       LEFT JOIN movements m ON m.id = r.movement_id
       LEFT JOIN wallets pw ON pw.id = r.payer_wallet_id
       LEFT JOIN members payer ON payer.id = pw.member_id
      WHERE r.public_id = $1`,
    [publicId, me],
  );
  const r = rows[0];
  if (!r) return null;
  const isMine = r.member_id === me || r.by_cashier;
  // An ask is between the asker and the asked member: for anybody else it does not exist.
  if (r.asked_member_id !== null && !isMine && r.asked_member_id !== me) return null;
  const status = statusOf(r);
  return {
    id: r.public_id,
    walletId: r.wallet_id,
    payee: { memberId: Number(r.member_id), name: r.payee_name },
    amount: formatCents(r.amount),
    currency: r.symbol,
    senderMemo: r.sender_memo,
    recipientMemo: r.recipient_memo,
    status,
    expiresAt: r.expires_at.toISOString(),
    createdAt: r.created_at.toISOString(),
    isMine,
    // A scanning payer's app says at once what paying would answer, in the server's words.
    closedMessage: status === "open" ? null : CLOSED_MESSAGE[status],
    payment:
      isMine && r.tx_id && r.payer_wallet_id && r.paid_at
        ? {
            transactionId: r.tx_id,
            payerWalletId: r.payer_wallet_id,
            payerName: r.payer_name ?? "",
            payerHint: nameHint(r.payer_since),
            paidAt: r.paid_at.toISOString(),
          }
        : null,
  };
}

export async function readPaymentRequest(db: Queryable, me: bigint, publicId: string): Promise<PaymentRequestView> {
  const view = await getPaymentRequest(db, me, publicId);
  if (!view) throw requestNotFound();
  return view;
}

/**
 * The payee withdraws an open request. Another member's request is answered as one that does not
 * exist; a paid one is refused (the money moved); an expired or already cancelled one is answered
 * as it is, so a repeated cancel does no harm.
 */
export async function cancelPaymentRequest(db: Queryable, me: bigint, publicId: string): Promise<PaymentRequestView> {
  const view = await getPaymentRequest(db, me, publicId);
  if (!view || !view.isMine) throw requestNotFound();
  // The UPDATE re-checks status and expiry itself: a payment committing meanwhile wins, and is reported.
  const { rowCount } = await db.query(
    "UPDATE payment_requests SET status = 'cancelled', closed_at = now() WHERE public_id = $1 AND status = 'open' AND expires_at > now()",
    [publicId],
  );
  const after = (await getPaymentRequest(db, me, publicId))!;
  if (!rowCount && after.status === "paid") throw closedRefusal("paid");
  return after;
}

/**
 * Locks the request a payment names, in the payment's transaction and before the ledger's locks
 * (so request payers queue on the request row and never deadlock with each other), and refuses
 * unless the payment may pay it. Answers whether the payment is the replay of the one that already
 * paid it (same payer, same idempotency key): the ledger then answers that movement again. Also
 * answers the request's memo for its recipient, which the payment carries (the till's sales list
 * it): the payer's own memo is replaced, unless a device signed it, which the server cannot
 * change, so a signed payment must carry the request's memo already.
 */
export async function lockRequestForPayment(
  tx: Tx,
  publicId: string,
  payment: { payerWalletId: string; payeeWalletId: string; amount: bigint; key: string; recipientMemo: string; signed: boolean },
): Promise<{ replay: boolean; recipientMemo: string }> {
  const { rows } = await tx.query<Row & { key: string | null; paid_memo: string | null; payer_member: bigint | null }>(
    `SELECT r.*, ${LAPSED}, m.idempotency_key AS key, m.recipient_memo AS paid_memo,
       (SELECT member_id FROM wallets WHERE id = $2) AS payer_member
       FROM payment_requests r LEFT JOIN movements m ON m.id = r.movement_id
      WHERE r.public_id = $1 FOR UPDATE OF r`,
    [publicId, payment.payerWalletId],
  );
  const r = rows[0];
  // An ask is paid by the member asked, and by nobody else: to them it does not exist.
  if (!r || (r.asked_member_id !== null && r.asked_member_id !== r.payer_member)) throw requestNotFound();
  // A replay carries the memo its payment was made with, so that the ledger recognises it.
  if (r.status === "paid" && r.payer_wallet_id === payment.payerWalletId && r.key === payment.key) return { replay: true, recipientMemo: r.paid_memo ?? "" };
  const recipientMemo = r.recipient_memo;
  // now() is the transaction's start, which the movement's created_at will be too: paid in time means exactly that.
  const status = statusOf(r);
  if (status !== "open") throw closedRefusal(status);
  if (r.wallet_id !== payment.payeeWalletId || r.amount !== payment.amount) throw new Refusal(ErrorCode.validation, { id: SM.paymentRequestMismatch });
  if (payment.signed && payment.recipientMemo !== recipientMemo) throw new Refusal(ErrorCode.validation, { id: SM.paymentRequestMemoMismatch });
  return { replay: false, recipientMemo };
}

/** Marks the locked request paid by `movement`, in the same transaction. */
export async function markRequestPaid(tx: Tx, publicId: string, movement: MovementRow): Promise<void> {
  await tx.query("UPDATE payment_requests SET status = 'paid', movement_id = $2, payer_wallet_id = $3, paid_at = $4 WHERE public_id = $1", [
    publicId,
    movement.id,
    movement.payer_wallet_id,
    movement.created_at,
  ]);
}

/**
 * How long a request never paid (expired or cancelled) is kept once it has expired: a payer who
 * scans it late is told it expired rather than that it never existed. Paid ones stay: they name
 * the movement that paid them, and a lost answer's retry is answered from them.
 */
export const UNPAID_KEPT_HOURS = 24;

/**
 * Deletes the requests never paid, a while after their expiry (`maintenance.ts` runs it on every
 * instance). A payment holding one's lock is waited for, and cannot pay it (it has expired); one
 * arriving after finds no request and is refused as not found, moving nothing.
 */
export async function sweepPaymentRequests(db: Queryable): Promise<number> {
  // Asks stay: the events that told of them name them, and the asker's list shows how they ended.
  const { rowCount } = await db.query(
    "DELETE FROM payment_requests WHERE status <> 'paid' AND ask_id IS NULL AND expires_at < now() - make_interval(hours => $1)",
    [UNPAID_KEPT_HOURS],
  );
  return rowCount ?? 0;
}
