import type { RouteSpec } from "./route-spec";

/**
 * The federation's routes (docs/federation.md), apart from the members' and the administrators'
 * tables, so that a member's app downloads them only where it uses them: what one association's
 * server asks of another it is linked with (access `peer`: no session opens them, every call is
 * signed by the calling server's key, RFC 9421, and so is every answer), and a member's quote for
 * paying across a link.
 */
export const federationRoutes = {
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
  /**
   * What paying a member of a linked association would cost: their name, the amount in their
   * currency and in the payer's, at the rate both associations count now.
   */
  quoteCrossPayment: { method: "POST", path: "/api/federation/quote", access: "member" },
} as const satisfies Record<string, RouteSpec>;
