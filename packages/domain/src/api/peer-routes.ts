import type { RouteSpec } from "./route-spec";

/**
 * What one association's server asks of another it is linked with (docs/federation.md), apart
 * from the members' and the administrators' tables: no app calls these, and no session opens them.
 * Every call is signed by the calling server's key (RFC 9421), and so is every answer.
 */
export const peerRoutes = {
  /** Who this server is: its association, currency and public key (the invitation names the key's fingerprint). */
  federationServer: { method: "GET", path: "/.well-known/mutua-federation", access: "public" },
  /** The invited server accepts an invitation: signed by the key it names, with the invitation's secret. */
  peerAcceptLink: { method: "POST", path: "/api/federation/links/accept", access: "peer" },
  /** The inviting server's owners confirmed the link: it is active on both sides once this is answered. */
  peerConfirmLink: { method: "POST", path: "/api/federation/links/confirm", access: "peer" },
  /** One side changed its terms (rate, trust limit, on or off): the other records them. */
  peerLinkTerms: { method: "POST", path: "/api/federation/links/terms", access: "peer" },
  /**
   * A quote for paying one of this association's members from the other: who they are, the
   * amount in both currencies at this side's terms. Nothing is held: the payment checks it all again.
   */
  peerQuote: { method: "POST", path: "/api/federation/quotes", access: "peer" },
} as const satisfies Record<string, RouteSpec>;
