import { z } from "zod";
import { M } from "../messages";
import { LIMITS } from "../vocabulary";

/** The shapes every area's contract uses: an answer that is just ok, amounts as 2-decimal strings, wallet ids, memos, request ids, health. */

export const Ok = z.object({ ok: z.literal(true) });

export const Allowed = z.object({ allowed: z.boolean() });

/** A 2-decimal amount string ("12.50"), the only form money takes at the API. */
export const AmountString = z.string().regex(/^\d{1,16}\.\d{2}$/, "an amount with exactly 2 decimals");

export const SignedAmountString = z.string().regex(/^-?\d{1,16}\.\d{2}$/);

export const WalletId = z.string().min(3).max(120);

export const WalletParams = z.object({ walletId: WalletId });

/**
 * At most LIMITS.memo characters, counted as the database counts them (code points, so an emoji
 * is one); JSON Schema's maxLength counts the same way, zod's max would count UTF-16 units.
 * The message is a msgid: the server answers with the spec's wording.
 */
export const Memo = z
  .string()
  .refine((s) => [...s].length <= LIMITS.memo, { message: M.memoTooLong })
  .meta({ maxLength: LIMITS.memo });

/** A payment request's public id: "pr_" and 22 random base64url characters (128 bits). */
export const PaymentRequestId = z.string().regex(/^pr_[\w-]{22}$/);

export const Health = z.object({ status: z.literal("ok"), version: z.string() });
