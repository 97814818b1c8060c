import {
  ErrorCode,
  M,
  memoProblem,
  MAX_AMOUNT_CENTS,
  MAX_AMOUNT_TEXT,
  SIGNATURE_MAX_AGE_SECONDS,
  canonicalTransferMessage,
  formatCents,
  parseApiAmount,
  splitPayment,
  spendable,
  type SubAccount,
  SM,
} from "@mutua/domain";
import { recoverSigner } from "@mutua/wallet";
import { inTransaction, type Db } from "../../db/pool";
import { Batcher, perPool } from "../ledger/batching";
import { Refusal, invalid, notFound } from "../platform/errors";
import { requireReconversions, type Features } from "../platform/features";
import { postMovement, postMovementTx, retriedWhenAsked, type MovementRequest, type MovementRow } from "../ledger/ledger";
import { lockRequestForPayment, markRequestPaid } from "./payment-requests";
import { lockOfferForPayment, recordOfferPayment } from "../shops/offers";
import { sentView, transactionByMovement } from "../ledger/transactions";
import { walletColumns, type WalletRow } from "../wallets/wallets";

const tooLarge = () => new Refusal(ErrorCode.validation, { id: M.amountTooLarge, values: { maxValue: MAX_AMOUNT_TEXT } });

/** An amount sent, in cents: more than nothing, at most the spec's maximum. Every payment's rule, local or across. */
export const sentCents = (s: string): bigint => {
  const c = parseApiAmount(s);
  if (c === null || c <= 0n) throw new Refusal(ErrorCode.validation, { id: M.amountSendNotPositive });
  if (c > MAX_AMOUNT_CENTS) throw tooLarge();
  return c;
};

async function balances(db: Db, walletId: string) {
  const { rows } = await db.query<{ kind: SubAccount; balance: bigint; floor: bigint | null; ceiling: bigint | null }>(
    "SELECT kind, balance, floor, ceiling FROM accounts WHERE wallet_id = $1",
    [walletId],
  );
  return Object.fromEntries(rows.map((r) => [r.kind, r])) as Partial<Record<SubAccount, (typeof rows)[number]>>;
}

/**
 * Why member `me` may not pay from `payer` to `payee`, or null when they may: the payer is one of
 * their wallets, the payee a member's or the association's safe (reconversions), another wallet
 * of the same backend, and both are active and not frozen. The one rule for our API and the Lokavaluto face; the
 * ledger checks the statuses again under its locks.
 */
export function paymentRefusal(me: bigint, payer: WalletRow | null, payee: (WalletRow & { owner_name?: string | null }) | null): Refusal | null {
  if (!isPayersOwn(me, payer)) return notFound();
  if (!payee || (payee.role !== "member" && payee.role !== "safe")) return notFound();
  if (payer.id === payee.id || payer.backend_id !== payee.backend_id) return new Refusal(ErrorCode.validation, { id: M.cannotSendToAccount });
  if (payer.status !== "active") return payerRefusal(payer);
  if (payee.status !== "active") return new Refusal(ErrorCode.inactiveAccount, { id: M.targetInactive });
  // The payee's freeze is told as what it means to the payer, in the payee's name: "This account is
  // frozen." under their own balance, payers took for their own account.
  return payerRefusal(payer) ?? (payee.frozen_reason !== null ? payeeFrozen(payee.owner_name) : null);
}

/** A frozen payee's refusal, in their name; the association's own wallets have none to give. */
const payeeFrozen = (name: string | null | undefined) =>
  new Refusal(ErrorCode.accountFrozen, name ? { id: SM.payeeCannotReceive, values: { name } } : { id: SM.accountFrozen });

/**
 * Whether a ledger wallet's payment carries its device's signature, made lately (within
 * SIGNATURE_MAX_AGE_SECONDS either way): the refusal if not. Every signed payment's rule, local or across.
 */
export function signatureRefusal(signed: { signature?: string | undefined; at?: string | undefined }, now: Date): Refusal | null {
  if (!signed.signature || !signed.at) return new Refusal(ErrorCode.invalidSignature, { id: M.invalidSignature });
  const at = Date.parse(signed.at);
  if (Number.isNaN(at) || Math.abs(now.getTime() - at) > SIGNATURE_MAX_AGE_SECONDS * 1000)
    return new Refusal(ErrorCode.signatureExpired, { id: M.signatureExpired });
  return null;
}

/** The payment's text was signed by the wallet's own key, or it is refused: the server cannot make one up. */
export function requireSigner(message: string, signature: string, address: string): void {
  if (recoverSigner(message, signature) !== address) throw new Refusal(ErrorCode.invalidSignature, { id: M.invalidSignature });
}

/** Whether `payer` is one of member `me`'s wallets, as any payment of theirs needs (anybody else's is not found). */
export const isPayersOwn = (me: bigint, payer: WalletRow | null): payer is WalletRow =>
  payer !== null && payer.member_id === me && payer.status !== "discarded";

/**
 * The payer's half of every payment's refusals, local or across a link: a wallet that is not
 * active cannot send, nor can a frozen one. Null when it may send.
 */
export function payerRefusal(payer: Pick<WalletRow, "status" | "frozen_reason">): Refusal | null {
  if (payer.status !== "active") return new Refusal(ErrorCode.inactiveAccount, { id: SM.payerInactive });
  if (payer.frozen_reason !== null) return new Refusal(ErrorCode.accountFrozen, { id: SM.accountFrozen });
  return null;
}

export const canPay = (me: bigint, payer: WalletRow | null, payee: WalletRow | null): boolean => paymentRefusal(me, payer, payee) === null;

/** A wallet of a payment, with what its answer names: the owner (none for the association's) and the currency. */
type PaymentWallet = WalletRow & { owner_name: string | null; symbol: string };

/**
 * The two wallets of a payment, refused by `paymentRefusal`. With the payment's idempotency
 * `key`, a freeze does not refuse the retry of a payment made before it (its answer was lost):
 * the ledger answers it with the movement it holds, and refuses any new one as frozen, under its
 * locks (it looks the key up before it looks at the freeze).
 */
async function counterpart(db: Db, me: bigint, from: string, to: string, key?: string): Promise<{ payer: PaymentWallet; payee: PaymentWallet }> {
  // Both wallets in one read (a round trip less per transfer), shared with the payments
  // that arrive at the same time (services/ledger/batching.ts).
  const rows = await paymentWalletReads(db).submit([from, to]);
  const payer = rows.find((w) => w.id === from) ?? null;
  const payee = rows.find((w) => w.id === to) ?? null;
  const refusal = paymentRefusal(me, payer, payee);
  if (refusal && !(refusal.code === ErrorCode.accountFrozen && key !== undefined && (await alreadyPosted(db, payer!.id, key)))) throw refusal;
  return { payer: payer!, payee: payee! };
}

/** Whether the payer's wallet already made a movement under this idempotency key. */
async function alreadyPosted(db: Db, payerId: string, key: string): Promise<boolean> {
  const { rowCount } = await db.query("SELECT 1 FROM movements WHERE payer_wallet_id = $1 AND idempotency_key = $2", [payerId, key]);
  return (rowCount ?? 0) > 0;
}

const readPaymentWallets = async (db: Db, ids: string[]) =>
  (
    await db.query<PaymentWallet>({
      name: "payment-wallets",
      text: `SELECT ${walletColumns("w")}, m.name AS owner_name, c.symbol FROM wallets w
               LEFT JOIN members m ON m.id = w.member_id JOIN backends b ON b.id = w.backend_id JOIN currencies c ON c.id = b.currency_id
              WHERE w.id = ANY($1::text[])`,
      values: [ids],
    })
  ).rows;

const paymentWalletReads = perPool(
  (db: Db) =>
    new Batcher<string[], PaymentWallet[]>({
      one: (ids) => readPaymentWallets(db, ids),
      many: async (reads) => {
        const rows = await readPaymentWallets(db, [...new Set(reads.flat())]);
        return reads.map((ids) => rows.filter((w) => ids.includes(w.id)));
      },
      concurrency: 2,
      maxBatch: 64,
    }),
);

/**
 * How a payment would be made: one part for a custodial account; for a ledger wallet the
 * Comchain split between mutual credit and pledged money (and pledged money only toward the
 * safe wallet, which takes reconversions).
 */
export async function prepareTransfer(db: Db, me: bigint, from: string, to: string, amountText: string) {
  const amount = sentCents(amountText);
  const { payer, payee } = await counterpart(db, me, from, to);
  const a = await balances(db, payer.id);
  const b = await balances(db, payee.id);
  const insufficient = () => new Refusal(ErrorCode.insufficientBalance, { id: M.insufficientBalance });
  if (a.main) {
    const room = a.main.floor === null ? amount : a.main.balance - a.main.floor;
    if (amount > room) throw insufficient();
    return { parts: [{ account: "main" as const, amount: formatCents(amount) }], spendable: formatCents(room > 0n ? room : 0n) };
  }
  const nant = a.nant?.balance ?? 0n;
  if (payee.role === "safe" || !a.cm || !b.cm) {
    if (amount > nant) throw insufficient();
    return { parts: [{ account: "nant" as const, amount: formatCents(amount) }], spendable: formatCents(nant) };
  }
  const payerB = { nant, cm: a.cm.balance, cmFloor: a.cm.floor ?? 0n };
  const payeeB = { cm: b.cm.balance, cmCeiling: b.cm.ceiling };
  const r = splitPayment(amount, payerB, payeeB);
  if (!r.ok) throw insufficient();
  const parts = [
    { account: "cm" as const, amount: r.split.cm },
    { account: "nant" as const, amount: r.split.nant },
  ].filter((p) => p.amount > 0n);
  return { parts: parts.map((p) => ({ account: p.account, amount: formatCents(p.amount) })), spendable: formatCents(spendable(payerB, payeeB)) };
}

export interface TransferInput {
  from: string;
  to: string;
  parts: { account: SubAccount; amount: string }[];
  senderMemo: string;
  recipientMemo: string;
  key: string;
  at?: string | undefined;
  signature?: string | undefined;
  /** The payment request this pays, if any. */
  requestId?: string | undefined;
  /** The marketplace's offer this pays, if any. */
  offerId?: string | undefined;
}

/**
 * Moves money from one of the member's wallets. A ledger wallet's transfer must carry the
 * signature of the wallet's key over the canonical message, made within the last ten minutes:
 * the server, which never holds the key, cannot forge one.
 */
export async function transfer(db: Db, me: bigint, input: TransferInput, ctx: { associationName: string; features: Features }, now = new Date()) {
  if (input.requestId && input.offerId) throw new Refusal(ErrorCode.validation, { id: SM.offerPaymentKinds });
  const { payer, payee } = await counterpart(db, me, input.from, input.to, input.key);
  if (payee.role === "safe") requireReconversions(ctx.features);
  const parts = input.parts.map((p) => ({ account: p.account, amount: sentCents(p.amount) }));
  if (new Set(parts.map((p) => p.account)).size !== parts.length) throw new Refusal(ErrorCode.validation, { id: M.invalidRequest });
  if (parts.reduce((s, p) => s + p.amount, 0n) > MAX_AMOUNT_CENTS) throw tooLarge();
  for (const [field, m] of [
    ["senderMemo", input.senderMemo],
    ["recipientMemo", input.recipientMemo],
  ] as const) {
    // The domain's rule, as the app applies it: at most 50 characters, one line, no direction override (nor NUL, which PostgreSQL cannot hold).
    const problem = memoProblem(m);
    if (problem) throw invalid({ [field]: problem });
  }
  let signedMessage: string | null = null;
  if (payer.address) {
    const unsigned = signatureRefusal(input, now);
    // An old message is refused unless it is the retry of a payment already made (idempotency answers it).
    if (unsigned && (unsigned.code !== ErrorCode.signatureExpired || !(await alreadyPosted(db, payer.id, input.key)))) throw unsigned;
    signedMessage = canonicalTransferMessage({
      from: input.from,
      to: input.to,
      parts: input.parts,
      senderMemo: input.senderMemo,
      recipientMemo: input.recipientMemo,
      key: input.key,
      at: input.at!, // signatureRefusal saw it
    });
    requireSigner(signedMessage, input.signature!, payer.address);
  }
  const movementRequest: MovementRequest = {
    kind: payee.role === "safe" ? "reconversion" : "payment",
    payerWalletId: payer.id,
    payeeWalletId: payee.id,
    parts,
    senderMemo: input.senderMemo,
    recipientMemo: input.recipientMemo,
    idempotencyKey: input.key,
    initiatedBy: me,
    signedMessage,
    signature: input.signature ?? null,
  };
  const { movement, replayed } = input.requestId
    ? await payRequest(db, input.requestId, movementRequest)
    : input.offerId
      ? await payOffer(db, input.offerId, movementRequest)
      : await postMovement(db, movementRequest);
  // A payment just made is answered from what it knows; one answered again (same key) as the ledger holds it now.
  if (replayed) return transactionByMovement(db, payer.id, movement.id, ctx.associationName);
  return sentView(movement, parts, { id: payee.id, memberId: payee.member_id, name: payee.owner_name }, payer.symbol, ctx.associationName);
}

/**
 * Pays a payment request: the request row locked, checked, the movement posted and the request
 * marked paid in one transaction, so of any number of concurrent payers exactly one moves money
 * and the others find it paid. The retry of the payment that paid it (same key) answers that
 * payment again. Retried, as postMovement is, when PostgreSQL asks to.
 */
async function payRequest(db: Db, requestId: string, req: MovementRequest): Promise<{ movement: MovementRow; replayed: boolean }> {
  const amount = req.parts.reduce((s, p) => s + p.amount, 0n);
  const payment = {
    payerWalletId: req.payerWalletId,
    payeeWalletId: req.payeeWalletId,
    amount,
    key: req.idempotencyKey,
    recipientMemo: req.recipientMemo,
    signed: req.signedMessage != null,
  };
  return retriedWhenAsked(() =>
    inTransaction(db, async (tx) => {
      const { replay, recipientMemo } = await lockRequestForPayment(tx, requestId, payment);
      // The payee reads the memo they asked with, whatever the payer's app sent.
      const { movement, replayed } = await postMovementTx(tx, { ...req, recipientMemo });
      if (replay) return { movement, replayed: true };
      // The key already paid something else with the same details: that payment is not this request's.
      if (replayed) throw new Refusal(ErrorCode.idempotencyConflict, { id: M.idempotencyConflict });
      await markRequestPaid(tx, requestId, movement);
      return { movement, replayed: false };
    }),
  );
}

/**
 * Pays a marketplace offer: in one transaction the offer is checked (live, its owner the payee:
 * services/shops/offers.ts), the movement posted, the link kept and the owner told (offer_paid).
 * A refusal writes nothing. The retry of the payment (same key) answers it again and tells nobody twice.
 */
async function payOffer(db: Db, offerId: string, req: MovementRequest): Promise<{ movement: MovementRow; replayed: boolean }> {
  // A retry of a payment made (its answer lost) is answered by the ledger, whatever the offer became since.
  if (await alreadyPosted(db, req.payerWalletId, req.idempotencyKey)) return postMovement(db, req);
  return retriedWhenAsked(() =>
    inTransaction(db, async (tx) => {
      const offer = await lockOfferForPayment(tx, offerId, { payeeWalletId: req.payeeWalletId, payerWalletId: req.payerWalletId });
      const { movement, replayed } = await postMovementTx(tx, req);
      if (replayed) return { movement, replayed: true };
      await recordOfferPayment(tx, offer, movement);
      return { movement, replayed: false };
    }),
  );
}
