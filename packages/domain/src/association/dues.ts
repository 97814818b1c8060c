import { z } from "zod";
import { M } from "../messages";
import { SM } from "../server-messages";
import { DUES_MODES, DUES_PERIODS, DUES_STATUSES, SUB_ACCOUNTS } from "../vocabulary";
import { AmountString } from "../platform/schemas";
import { isLocalDate } from "../platform/due-dates";

/**
 * Dues (services/association/dues*.ts): what members pay the association each period, set by
 * its owners. A fixed amount per month or per year, one for members and one for businesses (a
 * member with an approved business profile); or, for associations that use demurrage, a share
 * of the wallet's positive balance per period. Collected on their date from each member's wallet
 * into the association's dues wallet, one movement per member and period.
 */

/** A rate of demurrage per period, in percent with at most 4 decimals ("0.5": half a percent), at most 100. */
export const DuesRate = z
  .string()
  .regex(/^\d{1,3}(\.\d{1,4})?$/, SM.duesRateInvalid)
  .refine((r) => Number(r) > 0 && Number(r) <= 100, SM.duesRateInvalid);

export const LocalDateString = z.string().refine(isLocalDate, M.invalidRequest);

export const DuesPeriod = z.enum(DUES_PERIODS);
export const DuesMode = z.enum(DUES_MODES);
export const DuesStatus = z.enum(DUES_STATUSES);

/** The owners' dues, as they set them: a fixed amount needs one for members or for businesses (none: not charged). */
export const DuesPlanBody = z
  .strictObject({
    mode: DuesMode,
    period: DuesPeriod,
    /** The first collection date, in the association's time zone. */
    firstDate: LocalDateString,
    memberAmount: AmountString.nullable(),
    businessAmount: AmountString.nullable(),
    rate: DuesRate.nullable(),
  })
  .superRefine((b, ctx) => {
    if (b.mode === "fixed" && !isPositive(b.memberAmount) && !isPositive(b.businessAmount))
      ctx.addIssue({ code: "custom", path: ["memberAmount"], message: SM.duesAmountNeeded });
    if (b.mode === "demurrage" && b.rate === null) ctx.addIssue({ code: "custom", path: ["rate"], message: SM.duesRateInvalid });
  });
const isPositive = (a: string | null) => a !== null && /[1-9]/.test(a);

export const DuesPlan = z.object({
  mode: DuesMode,
  period: DuesPeriod,
  firstDate: z.string(),
  memberAmount: AmountString.nullable(),
  businessAmount: AmountString.nullable(),
  rate: z.string().nullable(),
  updatedAt: z.string(),
});

/** The owners' page: the dues set (null: none), the zone their dates are in, today there, and the next collection date. */
export const DuesSettings = z.object({
  plan: DuesPlan.nullable(),
  /** The association's currency symbol, the amounts' unit. */
  currency: z.string(),
  timeZone: z.string(),
  today: z.string(),
  nextDue: z.string().nullable(),
});

/** A period's dues by id ("du_…"). */
export const DuesParams = z.object({ duesId: z.string().regex(/^du_[0-9a-f]{24}$/, M.notFound) });

/** A member's unpaid dues, for the owners. */
export const DuesArrear = z.object({
  id: z.string(),
  member: z.object({ id: z.number().int(), name: z.string() }),
  /** The period's date. */
  period: z.string(),
  amount: AmountString,
  currency: z.string(),
  walletId: z.string(),
  /** A device-signed wallet: the server cannot take it, the member pays with a tap. */
  signed: z.boolean(),
  since: z.string(),
});

export const DuesArrears = z.object({ arrears: z.array(DuesArrear), total: z.number().int() });

/** What the collection took so far, by currency, for the owners' page. */
export const DuesRun = z.object({
  id: z.string(),
  period: z.string(),
  amount: AmountString,
  currency: z.string(),
  status: DuesStatus,
  walletId: z.string(),
  /** The movement that paid it, in the wallet's history. */
  transactionId: z.string().nullable(),
  settledAt: z.string().nullable(),
  /**
   * How the member pays it from a device-signed wallet: the payment to sign (the association's
   * dues wallet, its parts as the balance stands, the memos and the key); null when the server
   * takes it itself or it is settled.
   */
  pay: z
    .object({
      to: z.string(),
      parts: z.array(z.object({ account: z.enum(SUB_ACCOUNTS), amount: AmountString })),
      senderMemo: z.string(),
      recipientMemo: z.string(),
      key: z.string(),
      /** When it is signed, as the server's clock reads it now: a signature is good for ten minutes. */
      at: z.string(),
      /** The canonical transfer message of it all (packages/domain/src/transfer.ts), which the device signs. */
      message: z.string(),
    })
    .nullable(),
});

/** A member's dues: the next collection date and what it takes (null for a share of the balance), and each period's. */
export const MyDues = z.object({
  nextDue: z.string().nullable(),
  mode: DuesMode.nullable(),
  period: DuesPeriod.nullable(),
  amount: AmountString.nullable(),
  rate: z.string().nullable(),
  /** The association's currency symbol, the amount's unit. */
  currency: z.string(),
  runs: z.array(DuesRun),
});

/** A device-signed payment of a period's dues: what `pay` said, signed by the wallet's key. */
export const PayDuesBody = z.strictObject({
  parts: z
    .array(z.object({ account: z.enum(SUB_ACCOUNTS), amount: AmountString }))
    .min(1)
    .max(2),
  at: z.string().max(40),
  signature: z.string().max(200),
});

/** The dues operations' contract (api/dues-routes.ts). */
export const duesSchemas = {
  getMyDues: { response: MyDues },
  payDues: { params: DuesParams, body: PayDuesBody, response: DuesRun },
  getDuesSettings: { response: DuesSettings },
  saveDuesSettings: { body: DuesPlanBody, response: DuesSettings },
  listDuesArrears: { response: DuesArrears },
  waiveDues: { params: DuesParams, response: DuesArrears },
};
