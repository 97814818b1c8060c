import { z } from "zod";
import { M } from "../messages";
import { AmountString, Memo, WalletId } from "../platform/schemas";
import { Hex32 } from "../wallets/schemas";
import { STANDING_ORDER_FREQUENCIES, STANDING_ORDER_MAX_RETRY_DAYS, STANDING_ORDER_OUTCOMES, STANDING_ORDER_STATES } from "./standing-orders";
import { isLocalDate } from "../platform/due-dates";

/** The standing orders' contract (the rules are in standing-orders.ts, without zod). */

/** A standing order's public id: "so_" and 22 random base64url characters. */
export const StandingOrderId = z.string().regex(/^so_[\w-]{22}$/);

export const StandingOrderParams = z.object({ orderId: StandingOrderId });

/** A day of the association's calendar, "YYYY-MM-DD". */
export const IsoDate = z.string().refine(isLocalDate, { message: M.invalidRequest });

export const CreateStandingOrderBody = z.object({
  /** One of the member's own active wallets: what pays. */
  from: WalletId,
  /** A member's or a shop's wallet of the same currency. */
  to: WalletId,
  amount: AmountString,
  /** Said on the payment to both sides: the order's description. */
  memo: Memo.default(""),
  frequency: z.enum(STANDING_ORDER_FREQUENCIES),
  /** The first payment's day: today or later. */
  startDate: IsoDate,
  /** The last day a payment may fall on; null: no end. */
  endDate: IsoDate.nullable().default(null),
  /** A refused payment is tried again the next day, this many days at most; 0: that one is skipped. */
  retryDays: z.number().int().min(0).max(STANDING_ORDER_MAX_RETRY_DAYS).default(0),
  /**
   * A wallet held by the server (custodial) pays without its member: they confirm once, here,
   * with their password or one of this device's PINs. A device-signed wallet needs neither.
   */
  password: z.string().max(1024).optional(),
  pin: z.object({ pinId: z.string().uuid(), proof: Hex32 }).optional(),
});

/** Changes what the body names, leaves the rest. */
export const UpdateStandingOrderBody = z.object({
  amount: AmountString.optional(),
  endDate: IsoDate.nullable().optional(),
});

export const StandingOrderRun = z.object({
  /** The occurrence's day. */
  date: IsoDate,
  outcome: z.enum(STANDING_ORDER_OUTCOMES),
  /** 0 for the occurrence's day, then one more for each day it was tried again. */
  attempt: z.number().int(),
  /** Why it was refused: a msgid the apps translate, as a refusal's. */
  reason: z.string().nullable(),
  /** The payment, once made (by the server, or for a reminder by the member's device). */
  transactionId: z.string().nullable(),
  at: z.string(),
});

export const StandingOrderView = z.object({
  id: StandingOrderId,
  fromWalletId: z.string(),
  payee: z.object({ walletId: z.string(), name: z.string() }),
  currency: z.string(),
  amount: AmountString,
  memo: z.string(),
  frequency: z.enum(STANDING_ORDER_FREQUENCIES),
  startDate: IsoDate,
  endDate: IsoDate.nullable(),
  retryDays: z.number().int(),
  state: z.enum(STANDING_ORDER_STATES),
  /** The wallet's key is on the member's device: each occurrence is a reminder to pay, not a payment. */
  signed: z.boolean(),
  /** The next occurrence's day; null once ended or cancelled. */
  nextDate: IsoDate.nullable(),
  /** The day a refused payment is tried again, when it is. */
  retryDate: IsoDate.nullable(),
  /** For a signed wallet: occurrences reminded and not paid yet, each with the key its payment must carry. */
  toPay: z.array(z.object({ date: IsoDate, key: z.string() })),
  /** The latest tries, newest first. */
  runs: z.array(StandingOrderRun),
  createdAt: z.string(),
});

export const standingOrderSchemas = {
  listStandingOrders: { response: z.array(StandingOrderView) },
  createStandingOrder: { body: CreateStandingOrderBody, response: StandingOrderView },
  getStandingOrder: { params: StandingOrderParams, response: StandingOrderView },
  updateStandingOrder: { params: StandingOrderParams, body: UpdateStandingOrderBody, response: StandingOrderView },
  pauseStandingOrder: { params: StandingOrderParams, response: StandingOrderView },
  resumeStandingOrder: { params: StandingOrderParams, response: StandingOrderView },
  cancelStandingOrder: { params: StandingOrderParams, response: StandingOrderView },
} as const;
