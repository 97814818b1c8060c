import type { RouteSpec } from "./route-spec";

/**
 * The marketplace (members' offers and needs), apart from the members' table so that the app
 * downloads them with the marketplace's screens only, not with the sign-in page or the dashboard.
 * Its schemas are in shops/market.ts. Paying an offer is the `transfer` operation with its `offerId`.
 */
export const marketRoutes = {
  /** Live offers and needs (not expired, withdrawn nor hidden), found by words and category; or the caller's own (`mine`). */
  listOffers: { method: "GET", path: "/api/market/offers", access: "member" },
  /** Posts an offer or a need. */
  createOffer: { method: "POST", path: "/api/market/offers", access: "member" },
  /** One live offer, or one of the caller's own in any state. */
  getOffer: { method: "GET", path: "/api/market/offers/:offerId", access: "member" },
  /** The owner edits it, a new expiry renewing it (a withdrawn one is listed again). */
  updateOffer: { method: "PUT", path: "/api/market/offers/:offerId", access: "member" },
  /** The owner takes it off the list. */
  withdrawOffer: { method: "POST", path: "/api/market/offers/:offerId/withdraw", access: "member" },
  /** The owner adds a photo (JPEG, WebP or PNG, base64). */
  addOfferPhoto: { method: "POST", path: "/api/market/offers/:offerId/photos", access: "member", bodyLimit: 320 * 1024 },
  removeOfferPhoto: { method: "DELETE", path: "/api/market/offers/:offerId/photos/:photoId", access: "member" },
  /** A photo of an offer the caller may see. */
  getOfferPhoto: { method: "GET", path: "/api/market/offers/:offerId/photos/:photoId", access: "member" },
  /** A member reports an offer to the association, once. */
  reportOffer: { method: "POST", path: "/api/market/offers/:offerId/report", access: "member" },
  /** The reported offers, for the account administrators. */
  listReportedOffers: { method: "GET", path: "/api/admin/market/reports", access: "accounts" },
  /** An account administrator hides an offer (audited): it leaves the list and can no longer be paid. */
  hideOffer: { method: "POST", path: "/api/admin/market/offers/:offerId/hide", access: "accounts" },
} as const satisfies Record<string, RouteSpec>;
