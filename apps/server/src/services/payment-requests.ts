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
import type { Queryable, Tx } from "../db/pool";
import { Refusal, invalid } from "./errors";
import type { MovementRow } from "./ledger";
import { tillWallet } from "./tills";

/**
 * Payment requests (issue 20): a payee asks for an exact amount into one of their wallets. Its
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
  /** Still open past its expiry, by the database's clock (the one every instance shares). */
  lapsed: boolean;
}

export const requestNotFound = () => new Refusal(ErrorCode.notFound, { id: SM.paymentRequestNotFound });

/** The status a row has now: one left open past its expiry is expired, whether or not a write said so. */
const statusOf = (r: Pick<Row, "status" | "lapsed">): PaymentRequestStatus => (r.lapsed ? "expired" : r.status);
const LAPSED = "(r.status = 'open' AND r.expires_at <= now()) AS lapsed";

/** Why a request that is not open cannot be paid (or cancelled), as the payer reads it. */
const CLOSED_MESSAGE = { paid: SM.paymentRequestPaid, expired: SM.paymentRequestExpired, cancelled: SM.paymentRequestCancelled } as const;
const closedRefusal = (status: Exclude<PaymentRequestStatus, "open">) => new Refusal(ErrorCode.stateConflict, { id: CLOSED_MESSAGE[status] });

export interface NewPaymentRequest {
  walletId: string;
  amount: string;
  senderMemo: string;
  recipientMemo: string;
  expiresInMinutes: number;
}

export async function createPaymentRequest(db: Queryable, me: bigint, input: NewPaymentRequest): Promise<PaymentRequestView> {
  // The wallet's till: its owner or a cashier of it; anybody else's wallet (or the association's) does not exist.
  const wallet = await tillWallet(db, me, input.walletId);
  if (wallet.status !== "active") throw new Refusal(ErrorCode.inactiveAccount, { id: M.targetInactive });
  const cents = parseApiAmount(input.amount);
  if (cents === null || cents <= 0n) throw invalid({ amount: { id: M.amountRequestNotPositive } });
  if (cents > MAX_AMOUNT_CENTS) throw invalid({ amount: { id: M.amountTooLarge, values: { maxValue: MAX_AMOUNT_TEXT } } });
  for (const field of ["senderMemo", "recipientMemo"] as const) {
    // The memo rules of a payment: the payment made from this request will carry them.
    const problem = memoProblem(input[field]);
    if (problem) throw invalid({ [field]: problem });
  }
  const publicId = `pr_${randomBytes(16).toString("base64url")}`;
  await db.query(
    `INSERT INTO payment_requests (public_id, wallet_id, amount, sender_memo, recipient_memo, expires_at, created_by)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(mins => $6), $7)`,
    [publicId, wallet.id, cents, input.senderMemo, input.recipientMemo, input.expiresInMinutes, me],
  );
  return (await getPaymentRequest(db, me, publicId))!;
}

/** A request as `me` sees it: anybody signed in holding the id reads what to pay; its till (owner, cashiers) also who paid. */
export async function getPaymentRequest(db: Queryable, me: bigint, publicId: string): Promise<PaymentRequestView | null> {
  const { rows } = await db.query<
    Row & { member_id: bigint; by_cashier: boolean; payee_name: string; symbol: string; tx_id: string | null; payer_name: string | null }
  >(
    `SELECT r.*, ${LAPSED}, w.member_id, pm.name AS payee_name, c.symbol, m.public_id AS tx_id, payer.name AS payer_name,
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
        ? { transactionId: r.tx_id, payerWalletId: r.payer_wallet_id, payerName: r.payer_name ?? "", paidAt: r.paid_at.toISOString() }
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
  const { rowCount } = await db.query("UPDATE payment_requests SET status = 'cancelled' WHERE public_id = $1 AND status = 'open' AND expires_at > now()", [
    publicId,
  ]);
  const after = (await getPaymentRequest(db, me, publicId))!;
  if (!rowCount && after.status === "paid") throw closedRefusal("paid");
  return after;
}

/**
 * Locks the request a payment names, in the payment's transaction and before the ledger's locks
 * (so request payers queue on the request row and never deadlock with each other), and refuses
 * unless the payment may pay it. Answers whether the payment is the replay of the one that already
 * paid it (same payer, same idempotency key): the ledger then answers that movement again.
 */
export async function lockRequestForPayment(
  tx: Tx,
  publicId: string,
  payment: { payerWalletId: string; payeeWalletId: string; amount: bigint; key: string },
): Promise<{ replay: boolean }> {
  const { rows } = await tx.query<Row & { key: string | null }>(
    `SELECT r.*, ${LAPSED}, m.idempotency_key AS key FROM payment_requests r LEFT JOIN movements m ON m.id = r.movement_id
      WHERE r.public_id = $1 FOR UPDATE OF r`,
    [publicId],
  );
  const r = rows[0];
  if (!r) throw requestNotFound();
  if (r.status === "paid" && r.payer_wallet_id === payment.payerWalletId && r.key === payment.key) return { replay: true };
  // now() is the transaction's start, which the movement's created_at will be too: paid in time means exactly that.
  const status = statusOf(r);
  if (status !== "open") throw closedRefusal(status);
  if (r.wallet_id !== payment.payeeWalletId || r.amount !== payment.amount) throw new Refusal(ErrorCode.validation, { id: SM.paymentRequestMismatch });
  return { replay: false };
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
