import { z } from "zod";
import { LIMITS, PAYMENT_REQUEST_STATUSES } from "../vocabulary";
import { AmountString, Memo, PaymentRequestId, WalletId } from "../platform/schemas";
import { OfferId } from "../shops/market";
import { ReconversionStatus, TopUpState } from "../ledger/schemas";
import { SubAccountKind } from "../ledger/schemas";
import { NameHint } from "../members/schemas";

/** The payments' contract: payments and payment requests, asks for money between members, top-ups and reconversions. */

export const TransferPart = z.object({ account: SubAccountKind, amount: AmountString });

export const PrepareTransferBody = z.object({ from: WalletId, to: WalletId, amount: AmountString });

export const PreparedTransfer = z.object({ parts: z.array(TransferPart), spendable: AmountString });

export const TransferBody = z.object({
  from: WalletId,
  to: WalletId,
  parts: z.array(TransferPart).min(1).max(2),
  senderMemo: Memo.default(""),
  recipientMemo: Memo.default(""),
  /** Client-generated idempotency key, the same on every retry of one payment. */
  key: z
    .string()
    .min(LIMITS.idempotencyKeyMin)
    .max(LIMITS.idempotencyKeyMax)
    .regex(/^[\w-]+$/),
  /**
   * The payment request this pays: the payment must be its exact amount to its wallet,
   * and is refused once the request is paid, cancelled or expired. Not part of a ledger wallet's
   * signed message: it links the payment to the request, it moves no money.
   */
  requestId: PaymentRequestId.optional(),
  /**
   * The marketplace's offer this pays (shops/market.ts): it must be live and its owner the payee;
   * its owner is told. Like `requestId`, not part of a ledger wallet's signed message.
   */
  offerId: OfferId.optional(),
  /** Ledger wallets: signing time and EIP-191 signature of the canonical transfer message. */
  at: z.string().max(40).optional(),
  signature: z
    .string()
    .regex(/^(0x)?[0-9a-fA-F]{130}$/)
    .optional(),
});

export const PaymentRequestParams = z.object({ requestId: PaymentRequestId });

export const CreatePaymentRequestBody = z.object({
  /** One of the caller's own active wallets: where the money goes. */
  walletId: WalletId,
  amount: AmountString,
  senderMemo: Memo.default(""),
  recipientMemo: Memo.default(""),
  expiresInMinutes: z.number().int().min(1).max(LIMITS.paymentRequestMinutesMax).default(LIMITS.paymentRequestMinutesDefault),
});

/**
 * What a payer needs to pay a request, and its state. `payment` (who paid, and the movement) is
 * the payee's to see: null for anybody else, and while unpaid.
 */
export const PaymentRequestView = z.object({
  id: PaymentRequestId,
  walletId: z.string(),
  payee: z.object({ memberId: z.number().int(), name: z.string() }),
  amount: AmountString,
  currency: z.string(),
  senderMemo: z.string(),
  recipientMemo: z.string(),
  status: z.enum(PAYMENT_REQUEST_STATUSES),
  expiresAt: z.string(),
  createdAt: z.string(),
  /** The caller runs the payee wallet's till: its owner, or one of its cashiers. */
  isMine: z.boolean(),
  /** Why it can no longer be paid (a msgid the apps translate, as a refusal's): null while open. */
  closedMessage: z.string().nullable(),
  payment: z
    .object({
      transactionId: z.string(),
      payerWalletId: z.string(),
      payerName: z.string(),
      payerHint: NameHint.optional(),
      paidAt: z.string(),
    })
    .nullable(),
});

/**
 * Asking members for money (a bill split when several): one request of each, into one of the
 * asker's wallets, which each asked member pays (a `transfer` naming its `requestId`) or declines.
 */
export const AskMoneyBody = z.object({
  /** One of the asker's own active wallets: where the money goes. */
  walletId: WalletId,
  memo: Memo.default(""),
  parts: z
    .array(z.object({ memberId: z.number().int().positive(), amount: AmountString }))
    .min(1)
    .max(LIMITS.askMembers),
});

/** One member's part of an ask, as the asker and the asked member see it. */
export const MoneyAsk = z.object({
  requestId: PaymentRequestId,
  walletId: z.string(),
  asker: z.object({ memberId: z.number().int(), name: z.string() }),
  asked: z.object({ memberId: z.number().int(), name: z.string() }),
  amount: AmountString,
  currency: z.string(),
  memo: z.string(),
  status: z.enum(PAYMENT_REQUEST_STATUSES),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** When it was paid, declined or cancelled; null while open (or expired). */
  closedAt: z.string().nullable(),
});

/** An ask of one or several members, made at once with one memo. */
export const AskGroup = z.object({
  id: z.string(),
  memo: z.string(),
  currency: z.string(),
  /** What all parts add up to. */
  total: AmountString,
  createdAt: z.string(),
  parts: z.array(MoneyAsk),
});

/** The asks of the member's to answer (open first), and their own latest asks with each part's state. */
export const AskList = z.object({ ofMe: z.array(MoneyAsk), byMe: z.array(AskGroup) });

/** `stop=asker`: declining also stops the asker from asking again (their other open asks are declined too). */
export const DeclineAskQuery = z.object({ stop: z.enum(["asker"]).optional() });

/** A member stopped from asking one for money, with when. */
export const BlockedAsker = z.object({ memberId: z.number().int(), name: z.string(), since: z.string() });

export const OrderId = z.string().min(3).max(80);

export const IdBody = z.object({ id: OrderId });

export const WalletBody = z.object({ walletId: WalletId });

export const CreateTopUpBody = z.object({ walletId: WalletId, amount: AmountString });

/** docs/spec.md §3 "Credit order": where the member pays. */
export const CreditOrder = z.object({ id: z.string(), order_url: z.string() });

export const PendingTopUp = z.object({
  id: z.string(),
  walletId: z.string(),
  amount: AmountString,
  currency: z.string(),
  date: z.string(),
  state: TopUpState,
  paid: z.boolean(),
  reference: z.string(),
  requester: z.object({ id: z.number().int(), name: z.string() }),
  order_url: z.string(),
  /** The signed-in member requested it: only they may pay or delete it (docs/spec.md §6). */
  isMine: z.boolean(),
  canCancel: z.boolean(),
});

/** docs/spec.md §3 "Pending credit request". */
export const CreditRequest = z.object({
  id: z.string(),
  related: z.string(),
  memberId: z.number().int(),
  /** The member's e-mail, for the administrators who validate (the route's right). */
  email: z.string(),
  walletId: z.string(),
  amount: AmountString,
  currency: z.string(),
  date: z.string(),
  backendId: z.string(),
  /** The currency's name, what administrators call the backend ("Demo Lokal"). */
  currencyName: z.string(),
  reference: z.string(),
  requester: z.object({ id: z.number().int(), name: z.string() }),
});

export const CreditValidation = z.object({
  id: z.string(),
  state: TopUpState,
  related: z.string(),
  amount: AmountString,
  currency: z.string(),
  /** The top-up movement, as the member's transaction list shows it. */
  transactionId: z.string(),
});

export const TopUpStateResult = z.object({ id: z.string(), state: TopUpState });

export const ReconversionView = z.object({
  /** The reconversion movement's id (a transaction id). */
  id: z.string(),
  related: z.string(),
  /** The member's e-mail (administrators only). */
  email: z.string(),
  walletId: z.string(),
  backendId: z.string(),
  currencyName: z.string(),
  amount: AmountString,
  currency: z.string(),
  date: z.string(),
  status: ReconversionStatus,
  updatedAt: z.string(),
});

export const ReconversionsQuery = z.object({ status: ReconversionStatus.optional() });

export const AdvanceReconversionBody = z.object({ id: OrderId, status: ReconversionStatus });
