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
  /**
   * The associations this one is linked with, active and switched on at both ends: each one's name
   * and address only. Public: a visitor of a payment link, not a member here, is offered to pay
   * from the app of their own association among them (docs/federation.md, "the member's side").
   */
  listLinkedAssociations: { method: "GET", path: "/api/federation/associations", access: "public" },
  /** The invited server accepts an invitation: signed by the key it names, with the invitation's secret. */
  peerAcceptLink: { method: "POST", path: "/api/federation/links/accept", access: "peer" },
  /** The inviting server's owners confirmed the link: it is active on both sides once this is answered. */
  peerConfirmLink: { method: "POST", path: "/api/federation/links/confirm", access: "peer" },
  /** One side changed its terms (rate, trust limit, on or off): the other records them. */
  peerLinkTerms: { method: "POST", path: "/api/federation/links/terms", access: "peer" },
  /**
   * The associations the other side forwards this side's payments to (what it reaches over its
   * other links), numbered: the newest list replaces the last.
   */
  peerRoutes: { method: "POST", path: "/api/federation/routes", access: "peer" },
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
  /**
   * Pays a member of a linked association: the member's money is held here, the other side
   * makes the payment or refuses it, and the hold is then kept (paid) or returned (refused).
   */
  payAcross: { method: "POST", path: "/api/federation/pay", access: "member" },
  /**
   * The payer's side, its member's money held, asks this side to pay one of its members: made
   * (committed) or refused in one transaction here, and the same answer to the same payment again.
   */
  peerPay: { method: "POST", path: "/api/federation/payments", access: "peer" },
  /** Quotes asked together over one link (at most 32): each answered as peerQuote answers it alone. */
  peerQuotes: { method: "POST", path: "/api/federation/quotes/many", access: "peer" },
  /** Payments sent together over one link (at most 32): each made or refused as peerPay makes it alone, with its own answer. */
  peerPayments: { method: "POST", path: "/api/federation/payments/many", access: "peer" },
  /**
   * What became of a payment: committed, or aborted, in which case it never will be made here
   * (asked before it arrived, it is refused when it does). The payer's side asks when it lost the answer.
   */
  peerPaymentState: { method: "POST", path: "/api/federation/payments/state", access: "peer" },
  /**
   * The payer's side's owners ended a payment in doubt (this side silent past their stated time)
   * and returned their member's money: this side records it and answers what it had done, aborted
   * (it agrees; one never seen is refused from then on) or committed (a conflict for the boards).
   */
  peerPaymentEnded: { method: "POST", path: "/api/federation/payments/ended", access: "peer" },
  /**
   * The other server has a new key: announced signed by the key this side knows it by, with the new
   * key's proof of possession. This side's link holds the new key from then on, and the old one
   * signs nothing here any more.
   */
  peerKeyRotated: { method: "POST", path: "/api/federation/links/key", access: "peer" },
  /**
   * The other side's owners ended the link: this side ends its side too (no payment crosses it any
   * more, either way; its balance stays for the boards), once, and answers the same when told again.
   */
  peerLinkEnded: { method: "POST", path: "/api/federation/links/ended", access: "peer" },
  /**
   * The other server answers at a new address: this side reaches it there once the server at that
   * address proved to hold the key that signed the message.
   */
  peerAddressChanged: { method: "POST", path: "/api/federation/address", access: "peer" },
  /**
   * Settling the link (docs/federation.md "Settlement"): the proposer's side tells a proposal, and
   * its withdrawal; the other side tells its owners' acceptance (posted there: the proposer posts
   * its side) or refusal. Each is recorded once, and answered with where the settlement stands.
   */
  peerSettlementProposed: { method: "POST", path: "/api/federation/settlements", access: "peer" },
  peerSettlementWithdrawn: { method: "POST", path: "/api/federation/settlements/withdrawn", access: "peer" },
  peerSettlementAccepted: { method: "POST", path: "/api/federation/settlements/accepted", access: "peer" },
  peerSettlementDeclined: { method: "POST", path: "/api/federation/settlements/declined", access: "peer" },
} as const satisfies Record<string, RouteSpec>;
