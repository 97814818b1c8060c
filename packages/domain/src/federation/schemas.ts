import { z } from "zod";
import { FEDERATION_LINK_ROLES, FEDERATION_LINK_STATES } from "../vocabulary";
import { AmountString } from "../platform/schemas";

/** The federation's contract: links between associations' servers, quotes and payments across them (docs/federation.md). */

/**
 * A currency's value against the common unit the linked associations count in (as Komunitin's
 * hour): a positive decimal of at most 4 places. The rate between two currencies is the ratio of
 * their values, so any two linked currencies have one.
 */
export const UnitValue = z
  .string()
  .regex(/^\d{1,6}(\.\d{1,4})?$/, "a positive number with at most 4 decimals")
  .refine((v) => Number(v) > 0, "a positive number with at most 4 decimals");

/** What one side of a link sets for the other. */
export const FederationTerms = z.object({
  /** One unit of this association's currency, in the common unit. */
  ourValue: UnitValue,
  /** One unit of the other association's currency, in the common unit. */
  theirValue: UnitValue,
  /** The most of the other's currency this side holds (what its members were paid from there, not yet balanced). */
  trustLimit: AmountString,
  /** Off, no payment crosses the link either way; the balances stay as they are. */
  enabled: z.boolean(),
});

/** A server's description of itself, published at its well-known address. */
export const FederationServer = z.object({
  protocol: z.literal("mutua-federation/1"),
  name: z.string(),
  url: z.string(),
  currencyName: z.string(),
  currencySymbol: z.string(),
  /** Ed25519, raw 32 bytes in base64url: also the `keyid` of its signatures. */
  publicKey: z.string(),
  /** The key's SHA-256 in hex, its first 32 digits: what an invitation names, and what owners compare aloud. */
  fingerprint: z.string(),
});

/**
 * An association this one is linked with, as anybody may read it (listLinkedAssociations): its name
 * and its server's address, where its members' app is. What a visitor of a payment link who is a
 * member there is offered: paying from that app. Nothing else of the link (terms, balances) is public.
 */
export const LinkedAssociation = z.object({ name: z.string(), url: z.string() });

export const FederationLink = z.object({
  id: z.string(),
  peerUrl: z.string(),
  /** Known once the other side answered (the invited side knows them from the start). */
  peer: FederationServer.omit({ protocol: true }).nullable(),
  /** Which side made the invitation. */
  role: z.enum(FEDERATION_LINK_ROLES),
  /** invited: the code is out, unanswered; accepted: the invited side accepted, the inviting side's owners confirm; active. */
  state: z.enum(FEDERATION_LINK_STATES),
  /** Whose move it is: this side's owners, the other side's, or nobody's (active). */
  waitingFor: z.enum(["us", "them"]).nullable(),
  /** This side's terms; null until this side set them (the inviting side sets them when it confirms). */
  terms: FederationTerms.nullable(),
  /** The other side's terms as it told them; null until it did. */
  peerTerms: FederationTerms.nullable(),
  /** Whether both sides count the same rate (their values cross-multiplied): payments need it. */
  ratesAgree: z.boolean(),
  /**
   * This side's newest terms are not yet received by the other side (its server did not answer
   * when they changed): this server sends them again until it answers.
   */
  termsPending: z.boolean(),
  createdAt: z.string(),
});

/**
 * What the owners ended of a payment in doubt, and what the other side said of it once told:
 * `waiting` (not told yet: sent again until its server answers), `agreed` (it had never made the
 * payment, and never will), `conflict` (it had made it: the member was paid there and refunded
 * here, for the two boards to settle).
 */
export const FederationEnding = z.object({
  at: z.string(),
  /** Whole days between the hold and its end, without an answer from the other side. */
  days: z.number().int().min(0),
  outcome: z.enum(["waiting", "agreed", "conflict"]),
});

/**
 * A payment across this side's owners may need to act on (docs/federation.md "Payments in doubt"):
 * one this side's member made whose end is not known (`ended` null: the money still held), or one
 * ended by the owners of the payer's side, with what became of it.
 */
export const FederationDoubtfulPayment = z.object({
  id: z.string(),
  linkId: z.string(),
  /** out: this side's member paid (the payer's side); in: the other side's member paid this side's. */
  direction: z.enum(["out", "in"]),
  /** This side's member's name. */
  member: z.string(),
  /** In this side's currency, and in the other's. */
  amount: AmountString,
  peerAmount: AmountString,
  createdAt: z.string(),
  /** Whole days since the money was held. */
  days: z.number().int().min(0),
  /** From when an owner may end it (the hold's time plus the stated days). */
  endableAt: z.string(),
  /** An owner of this side may end it now: in doubt, out, past the stated time. */
  endable: z.boolean(),
  ended: FederationEnding.nullable(),
});

export const FederationOverview = z.object({
  server: FederationServer,
  links: z.array(FederationLink),
  /** The days a payment must stay in doubt before the owners may end it (FEDERATION_DOUBT_DAYS). */
  doubtDays: z.number().int().min(1),
  /** The payments in doubt, and those ended by the owners, newest first. */
  payments: z.array(FederationDoubtfulPayment),
});

export const FederationPaymentParams = z.object({ linkId: z.string().min(1).max(64), paymentId: z.string().min(1).max(64) });

export const FederationInvitation = z.object({ link: FederationLink, code: z.string() });

/** An invitation's code, read before accepting it: who invites. */
export const PreviewFederationInvitationBody = z.object({ code: z.string().trim().min(10).max(2000) });

/**
 * Who invites, as its server describes itself at the address the code names, its key the one the
 * code's fingerprint names (else the preview is refused): what the accepting owner checks first.
 */
export const FederationInvitationPreview = FederationServer.omit({ protocol: true });

export const AcceptFederationInvitationBody = z.object({ code: z.string().trim().min(10).max(2000), terms: FederationTerms });

export const FederationTermsBody = z.object({ terms: FederationTerms });

export const FederationLinkParams = z.object({ linkId: z.string().min(1).max(64) });

/** The invited server's acceptance: the invitation's secret, who it is, and its terms. */
export const PeerAcceptBody = z.object({
  secret: z.string().min(16).max(128),
  server: FederationServer,
  terms: FederationTerms,
});

export const PeerAccepted = z.object({ server: FederationServer });

/** The other side's quote for paying one of its members: `amount` in its currency, `peerAmount` in the payer's. */
export const PeerQuoteBody = z.object({ walletId: z.string().min(3).max(120), amount: AmountString });

export const PeerQuote = z.object({
  payee: z.object({ walletId: z.string(), name: z.string() }),
  amount: AmountString,
  currencySymbol: z.string(),
  peerAmount: AmountString,
  /** One unit of the payee's currency in the payer's, as the payee's side counts it (at most 4 decimals). */
  rate: z.string(),
});

/** A member's question: paying `amount` (in the payee's currency) to a wallet of the linked association at `server`. */
export const CrossQuoteBody = z.object({ server: z.string().min(8).max(300), walletId: z.string().min(3).max(120), amount: AmountString });

export const CrossQuote = z.object({
  association: z.string(),
  payee: z.object({ walletId: z.string(), name: z.string() }),
  /** In the payee's currency. */
  amount: AmountString,
  currencySymbol: z.string(),
  /** What the payer pays, in their own currency. */
  payerAmount: AmountString,
  payerCurrencySymbol: z.string(),
  rate: z.string(),
});

export const PeerTermsBody = z.object({ terms: FederationTerms });

/**
 * A change of the sender's terms, numbered by the sender (one more at each change): the receiver
 * records it only when it is newer than the last it recorded, and answers ok to an old one or the
 * same one again, so that a change sent again until answered, or arriving late, is harmless.
 */
export const PeerLinkTermsBody = PeerTermsBody.extend({ version: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });

export const PaymentIdAcross = z.string().regex(/^fp_[A-Za-z0-9_-]{16,40}$/);

export const MemoAcross = z.string().max(50);

/**
 * A payment across, as the payer's side asks the payee's to make it: the payer's side already
 * holds its member's money. `amount` is in the payee's currency, `payerAmount` in the payer's,
 * related by the rate both sides count (checked again by the payee's side).
 */
export const PeerPayBody = z.object({
  paymentId: PaymentIdAcross,
  walletId: z.string().min(3).max(120),
  amount: AmountString,
  payerAmount: AmountString,
  payer: z.object({ name: z.string().min(1).max(200) }),
  memo: MemoAcross,
  /** The payee's payment request it pays (a till's), if any. */
  requestId: z.string().min(3).max(120).optional(),
});

/** The payee's side made it: its member is paid. */
export const PeerPaid = z.object({ state: z.literal("committed"), amount: AmountString, payerAmount: AmountString });

/** What became of a payment: the payee's side answers, and from then on never makes one it had not made. */
export const PeerPaymentStateBody = z.object({ paymentId: PaymentIdAcross });

export const PeerPaymentState = z.object({
  state: z.enum(["committed", "aborted"]),
  /** Why it was refused, in the payee's side's words; null when it committed, or was asked about before it arrived. */
  reason: z.string().nullable(),
});

/**
 * The payer's side's owners ended a payment in doubt after `days` days without an answer: their
 * member's money is returned. The payee's side answers what it had done (PeerPaymentState).
 */
export const PeerPaymentEndedBody = z.object({ paymentId: PaymentIdAcross, days: z.number().int().min(0).max(100_000) });

/**
 * A member's payment to a member of a linked association: the quote's amounts (`amount` in the
 * payee's currency, `payerAmount` in the payer's) and, for a ledger wallet, its key's signature
 * over canonicalCrossPaymentMessage.
 */
export const CrossPayBody = z.object({
  from: z.string().min(3).max(120),
  server: z.string().min(8).max(300),
  walletId: z.string().min(3).max(120),
  amount: AmountString,
  payerAmount: AmountString,
  memo: MemoAcross.default(""),
  requestId: z.string().min(3).max(120).optional(),
  key: z.string().min(8).max(100),
  at: z.string().max(40).optional(),
  signature: z.string().max(200).optional(),
});

export const CrossPayment = z.object({
  id: z.string(),
  /** committed: both associations posted it; pending: the other's answer was lost, and this server asks it again until it knows. */
  state: z.enum(["committed", "pending"]),
  association: z.string(),
  payee: z.object({ walletId: z.string(), name: z.string() }),
  amount: AmountString,
  currencySymbol: z.string(),
  payerAmount: AmountString,
  payerCurrencySymbol: z.string(),
  /** The movement in the payer's history. */
  transactionId: z.string(),
});
