import { z } from "zod";
import { M } from "../messages";
import { CROSSING_STATES, LIMITS, MOVEMENT_KINDS, RECONVERSION_STATUSES, SUB_ACCOUNTS, TOPUP_STATES } from "../vocabulary";
import { AmountString, SignedAmountString, WalletParams } from "../platform/schemas";

/** The ledger's contract: movements as their wallets see them, pages of them, and the month's summary of a wallet. */

/** The money accounts of a wallet that a movement posts to. */
export const SubAccountKind = z.enum(SUB_ACCOUNTS);

/** One movement of the wallet's, by its public id (a notification's `transactionId`). */
export const TransactionParams = WalletParams.extend({ transactionId: z.string().min(1).max(64) });

export const TransactionKind = z.enum(MOVEMENT_KINDS);

export const ReconversionStatus = z.enum(RECONVERSION_STATUSES);

export const TopUpState = z.enum(TOPUP_STATES);

export const CrossingState = z.enum(CROSSING_STATES);

export const TransactionView = z.object({
  id: z.string(),
  kind: TransactionKind,
  /** Signed, from the wallet's side: negative when sent. */
  amount: SignedAmountString,
  currency: z.string(),
  /** Counterparty's name. */
  related: z.string(),
  relatedWalletId: z.string(),
  relatedMemberId: z.number().int().nullable(),
  /** The counterparty member's photo, when they have one (the app shows it beside their name). */
  relatedPhotoUrl: z.string().nullable().optional(),
  description: z.string(),
  date: z.string(),
  pending: z.boolean(),
  isTopUp: z.boolean(),
  isReconversion: z.boolean(),
  /** Where a reconversion stands at the association (docs/spec.md §3); null for every other kind. */
  reconversionStatus: ReconversionStatus.nullable(),
  parts: z.array(z.object({ account: SubAccountKind, amount: SignedAmountString })),
  /**
   * A payment across a link with another association (docs/federation.md): its amount in the other
   * currency, one unit of that currency in this one's, as both counted it, and where it stands:
   * pending (the payer's side does not know yet what the other side did; `pending` says so too),
   * paid, or returned (the other side did not make it: both the hold and its return say so, as
   * "Payments across", "What the member sees" in docs/federation.md tells).
   */
  crossing: z.object({ amount: AmountString, currency: z.string(), rate: z.string(), state: CrossingState }).nullable().optional(),
});

export const TransactionsQuery = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(30),
  /** ISO date-times bounding the list (inclusive). */
  from: z.string().datetime({ offset: true }).optional(),
  to: z.string().datetime({ offset: true }).optional(),
  /** Only movements with this counterparty wallet. */
  counterparty: z.string().max(120).optional(),
  /** Only movements whose counterparty's name holds this text (typed, no suggestion picked). */
  counterpartyName: z.string().max(LIMITS.search, M.fieldTooLong).optional(),
  /**
   * Only movements whose counterparty's name or memo (the one this wallet sees) holds this text,
   * or whose amount it is ("12,50" or "12.50"); case and accents do not matter.
   */
  search: z.string().max(LIMITS.search, M.fieldTooLong).optional(),
});

/**
 * An IANA time zone name ("Europe/Paris", "UTC", "Etc/GMT+3") that this runtime knows. Offsets
 * ("+01:00") are refused: PostgreSQL reads them as POSIX zones, with the sign the other way.
 */
export function isTimeZone(tz: string): boolean {
  if (!/^[A-Za-z][\w+-]*(\/[\w+-]+)*$/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * The refusal of a time zone that is not one (the service checks it: a schema's own messages must
 * be the app's msgids, and the app, which sends the device's zone, never shows this one).
 */
export const UNKNOWN_TIME_ZONE = "Unknown time zone: give an IANA name such as Europe/Paris.";

export const AccountSummaryQuery = z.object({
  /** The member's time zone, an IANA name (isTimeZone): it decides where their days and their month begin. */
  tz: z.string().min(1).max(64),
  /** How many days of closing balances, today included. */
  days: z.coerce.number().int().min(7).max(90).default(30),
});

export const AccountSummary = z.object({
  currency: z.string(),
  /** This calendar month (in `tz`) so far: what came in and what went out, movement by movement. */
  monthIn: AmountString,
  monthOut: AmountString,
  /** The wallet's balance at the end of each day, oldest first, today (so far) last. */
  points: z.array(z.object({ day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), balance: SignedAmountString })),
});

export const TransactionPage = z.object({ items: z.array(TransactionView), next: z.string().nullable() });
