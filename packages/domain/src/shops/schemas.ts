import { z } from "zod";
import { EMAIL_MAX } from "../email";
import { AmountString } from "../platform/schemas";
import { NameHint } from "../members/schemas";

/** The shops' contract: a wallet's cashiers and their invitations, tills and sales. */

/**
 * One of a wallet's cashiers, or an invitation to become one, as the wallet's owner
 * sees them. Naming a cashier invites the address typed: until its holder accepts, the owner sees
 * that address and nothing else, and an address no member holds is answered alike, so naming a
 * cashier tells nobody who is a member or what they are called.
 */
export const Cashier = z.object({
  /** pending: invited, not answered yet; declined: the invitee said no; accepted: runs the till. */
  status: z.enum(["pending", "declined", "accepted"]),
  email: z.string(),
  /** The cashier, once they accepted; null before. */
  memberId: z.number().int().nullable(),
  name: z.string().nullable(),
  /** The invitation while it stands (the owner cancels it by this id); null once accepted. */
  invitationId: z.string().nullable(),
  /** When they were invited, or since when they run the till. */
  since: z.string(),
  /** When a standing invitation lapses; null once accepted. */
  expiresAt: z.string().nullable(),
});

export const GrantCashierBody = z.object({ email: z.string().trim().min(3).max(EMAIL_MAX) });

export const CashierInvitationParams = z.object({ invitationId: z.string().uuid() });

/** An invitation to run somebody's till, as its invitee sees it: whose till, until when. */
export const CashierInvitation = z.object({
  id: z.string(),
  walletId: z.string(),
  shopName: z.string(),
  currency: z.string(),
  currencyName: z.string(),
  since: z.string(),
  expiresAt: z.string(),
});

/** A till the member runs for its owner. */
export const Till = z.object({
  walletId: z.string(),
  shopName: z.string(),
  currency: z.string(),
  currencyName: z.string(),
  /** Frozen by the association: the till shows no code, and the server opens no request into it. */
  frozen: z.boolean(),
});

/**
 * A till's sales: the payments a wallet received between two instants (`from`
 * included, `to` excluded: the app sends the shop's local midnights), newest first.
 */
export const SalesQuery = z.object({
  from: z.string().datetime({ offset: true }),
  to: z.string().datetime({ offset: true }),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const Sale = z.object({
  transactionId: z.string(),
  amount: AmountString,
  payerName: z.string(),
  payerHint: NameHint.optional(),
  /** The memo the shop sees (the payment's recipient memo). */
  memo: z.string(),
  date: z.string(),
  /** The till's payment request it paid, if it paid one. */
  requestId: z.string().nullable(),
});

export const SalesPage = z.object({
  currency: z.string(),
  /** Whose till it is: the wallet owner's name, the Target of the CSV. */
  shopName: z.string(),
  /** Over the whole range, whatever the page: what the ledger holds for it. */
  count: z.number().int().min(0),
  total: AmountString,
  items: z.array(Sale),
  next: z.string().nullable(),
});
