/** The marketplace's closed lists and limits, without zod: the app and the server read them from the domain's index. */

/** An offer (a good or service the member sells) or a need (what they look for). */
export const MARKET_KINDS = ["offer", "need"] as const;
export type MarketKind = (typeof MARKET_KINDS)[number];

/**
 * The marketplace's own small list of categories, named in both languages by the app. The
 * association's editable list of business categories is another matter (the businesses' map).
 */
export const MARKET_CATEGORIES = ["food", "goods", "services", "housing", "transport", "leisure", "other"] as const;
export type MarketCategory = (typeof MARKET_CATEGORIES)[number];

/** Limits the contract, the server and the database share (characters). */
export const MARKET_LIMITS = {
  title: 80,
  description: 2000,
  reportReason: 200,
  hideReason: 200,
  /** Photos an offer may carry. */
  photos: 3,
  /** Bytes of one photo (the app scales it first). */
  photoBytes: 200 * 1024,
  /** How far ahead an expiry may be set. */
  maxDays: 180,
  /** Offers one member may have live at once. */
  liveOffers: 50,
} as const;
