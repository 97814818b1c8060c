import { z } from "zod";
import { M } from "../messages";
import { AmountString, WalletId } from "../platform/schemas";
import { MARKET_CATEGORIES, MARKET_KINDS, MARKET_LIMITS } from "./market-lists";

/**
 * The marketplace's contract (Komunitin's offers and needs): what members post, how others find
 * and pay them, and how the association keeps it clean (reports, hiding). Kept apart from the
 * shops' schemas.ts: its routes are their own table (api/market-routes.ts), downloaded with the
 * marketplace's screens only.
 */

export * from "./market-lists";

/** An offer's public id: `of_` and 128 random bits. */
export const OfferId = z.string().regex(/^of_[\w-]{22}$/);
export const OfferParams = z.object({ offerId: OfferId });
export const OfferPhotoParams = z.object({ offerId: OfferId, photoId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

const oneLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((s) => !["\n", "\r", "\u0000"].some((c) => s.includes(c)), M.invalidRequest);

/** What the member writes when posting or editing. */
export const OfferBody = z.object({
  kind: z.enum(MARKET_KINDS),
  category: z.enum(MARKET_CATEGORIES),
  title: oneLine(MARKET_LIMITS.title),
  description: z
    .string()
    .max(MARKET_LIMITS.description)
    .refine((s) => !s.includes("\u0000"), M.invalidRequest)
    .default(""),
  /** The price in the currency of `walletId`; null: to agree. */
  price: AmountString.nullable(),
  /** The member's own active account payments for it go to (an offer's; a need may name none). */
  walletId: WalletId.nullable(),
  /** Until when it is listed (an ISO instant, in the future, at most MARKET_LIMITS.maxDays ahead). */
  expiresAt: z.string().datetime({ offset: true }),
});

export const OfferPhoto = z.object({ id: z.number().int(), url: z.string() });

/** An offer or need as members see it. */
export const OfferView = z.object({
  id: OfferId,
  kind: z.enum(MARKET_KINDS),
  category: z.enum(MARKET_CATEGORIES),
  title: z.string(),
  description: z.string(),
  price: AmountString.nullable(),
  /** The currency's symbol of the price (the account's), when there is an account. */
  currency: z.string().nullable(),
  walletId: z.string().nullable(),
  owner: z.object({ memberId: z.number().int(), name: z.string(), photoUrl: z.string().nullable() }),
  photos: z.array(OfferPhoto),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** live: listed; expired, withdrawn (by its owner), hidden (by the association): only its owner sees it so. */
  status: z.enum(["live", "expired", "withdrawn", "hidden"]),
  isMine: z.boolean(),
  /** Whether the caller reported it already. */
  reported: z.boolean(),
  /** Whether it can be paid (a live offer with an account, not the caller's own). */
  payable: z.boolean(),
});

export const OffersQuery = z.object({
  /** Words, each of which the title or description must hold (accents and case ignored). */
  q: z.string().max(100).default(""),
  category: z.enum(MARKET_CATEGORIES).optional(),
  kind: z.enum(MARKET_KINDS).optional(),
  /** The caller's own, whatever their state (live, expired, withdrawn, hidden). */
  mine: z.enum(["true", "false"]).default("false"),
});

export const OfferList = z.object({ items: z.array(OfferView) });

export const OfferPhotoUploadBody = z.object({
  data: z
    .string()
    .min(1)
    .max(Math.ceil((MARKET_LIMITS.photoBytes * 4) / 3) + 8),
});
export const OfferPhotoQuery = z.object({ v: z.string().max(20).optional() });

export const ReportOfferBody = z.object({ reason: oneLine(MARKET_LIMITS.reportReason) });
export const HideOfferBody = z.object({ reason: oneLine(MARKET_LIMITS.hideReason) });

/** A reported offer, as the account administrators see it. */
export const ReportedOffer = z.object({
  offer: OfferView,
  reports: z.array(z.object({ by: z.string(), reason: z.string(), at: z.string() })),
  hiddenReason: z.string().nullable(),
});
