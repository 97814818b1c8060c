import { z } from "zod";
import { FEDERATION_KEY_STATES, FEDERATION_LINK_ENDERS, FEDERATION_LINK_ROLES, FEDERATION_LINK_STATES, FEDERATION_PEER_KEY_REPLACERS } from "../vocabulary";
import { AmountString, SignedAmountString } from "../platform/schemas";
import { PEER_BATCH_MAX } from "../federation";
import { FederationSettlement } from "./settlement-schemas";

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
  /** This side forwards the payments arriving over this link to its other links (its owners' choice; off until they turn it on). */
  forward: z.boolean(),
  createdAt: z.string(),
  /**
   * An ended link (docs/federation.md "Ending a link"): when, by which side's owners, and (ended
   * here) whether the other side acknowledged it yet: it is told until it does. Null otherwise.
   */
  ended: z.object({ at: z.string(), by: z.enum(FEDERATION_LINK_ENDERS), told: z.boolean() }).nullable(),
  /** The other server moved (its address changed, told signed by its key): where it was before, and when. Null if it never did. */
  moved: z.object({ from: z.string(), at: z.string() }).nullable(),
});

/**
 * What stands between the two sides of a link (docs/federation.md "Ending a link"): what this side
 * holds of the other's currency (`held`, in theirs) and what its clearing wallets owe the other
 * (`owed`, in this side's). An ended link keeps them for the boards to settle.
 */
export const FederationLinkBalance = z.object({ linkId: z.string(), held: SignedAmountString, owed: SignedAmountString });

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
 * one this side's member made, or this side forwarded, whose end is not known (`ended` null: the
 * money still held), or one ended by the owners of the payer's side, with what became of it.
 */
export const FederationDoubtfulPayment = z.object({
  id: z.string(),
  linkId: z.string(),
  /** out: this side's member paid (the payer's side); in: the other side's member paid this side's. */
  direction: z.enum(["out", "in"]),
  /** This side's member's name (of a payment forwarded, its payer's, a member of `forwardedFrom`). */
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
  /**
   * A payment this side forwarded (an association both trust, in the middle): the association its
   * payer belongs to, `member` being that payer; null for this side's own members' payments.
   */
  forwardedFrom: z.string().nullable(),
  ended: FederationEnding.nullable(),
});

/**
 * An association another server reaches over one of its links and forwards payments to, as that
 * server told it (docs/federation.md "Through an association both trust"): who it is, and the two
 * values of the forwarding side's terms with it (the forwarding side's currency and the reached
 * one's, in that link's common unit). `headroom` is the most the forwarding side could pay into it
 * when it told the list, in the reached association's currency: a hint, which the quote checks.
 */
export const FederationRoute = z.object({
  url: z.string().min(8).max(300),
  name: z.string().min(1).max(200),
  currencyName: z.string().min(1).max(100),
  currencySymbol: z.string().min(1).max(20),
  publicKey: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  values: z.object({ via: UnitValue, to: UnitValue }),
  headroom: AmountString,
});

/**
 * An association whose members' payments a linked server forwards to this side (the other way
 * round from a route): its name and its server's address, what a visitor of this side's payment
 * links may be offered, as a directly linked association's.
 */
export const FederationReachedBy = z.object({ url: z.string().min(8).max(300), name: z.string().min(1).max(200) });

/**
 * The associations a linked server forwards this side's payments to, told by it, numbered as its
 * terms are: a list replaces the last one recorded only when its number is newer. An empty list:
 * it forwards nothing for this side (any more). `reachedBy`: the associations whose payments it
 * forwards to this side (absent from a server that does not tell it: none).
 */
export const PeerRoutesBody = z.object({
  version: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  routes: z.array(FederationRoute).max(500),
  reachedBy: z.array(FederationReachedBy).max(500).optional(),
});

/** What the owners' console shows of an association reached through a link. */
export const FederationReach = z.object({
  /** The link it is reached through. */
  linkId: z.string(),
  name: z.string(),
  url: z.string(),
  currencySymbol: z.string(),
});

/** Whether this side forwards the payments arriving over a link to its other links, and tells the link's peer what it reaches. */
export const FederationForwardingBody = z.object({ forward: z.boolean() });

export const FederationOverview = z.object({
  server: FederationServer,
  links: z.array(FederationLink),
  /** The associations the linked servers said they forward this side's payments to, by link. */
  reach: z.array(FederationReach),
  /** The associations whose payments the linked servers said they forward to this side, by link: this side's payment links offer their apps. */
  reachedBy: z.array(z.object({ linkId: z.string(), name: z.string(), url: z.string() })),
  /** The days a payment must stay in doubt before the owners may end it (FEDERATION_DOUBT_DAYS). */
  doubtDays: z.number().int().min(1),
  /** The payments in doubt, and those ended by the owners, newest first. */
  payments: z.array(FederationDoubtfulPayment),
  /** The settlements of the links, proposed and answered, newest first (docs/federation.md "Settlement"). */
  settlements: z.array(FederationSettlement),
  /** Each link's two figures now, once it is past the invitation: what a settlement would bring toward zero. */
  balances: z.array(FederationLinkBalance),
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

export const PaymentIdAcross = z.string().regex(/^fp_[A-Za-z0-9_-]{16,40}$/);

/** A payment's condition (SHA-256 of its fulfilment), or its fulfilment: 32 bytes, base64url. */
export const ConditionBytes = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

/** Where a payment through the asked server ends: another association it is linked with (docs/federation.md "Through an association both trust"). */
export const PeerTarget = z.object({ url: z.string().min(8).max(300) });

/**
 * The other side's quote for paying one of its members: `amount` in its currency, `peerAmount` in
 * the payer's. With `to`, a member of an association the asked server forwards to; with
 * `paymentId`, the payee's side's condition for that payment.
 */
export const PeerQuoteBody = z.object({
  walletId: z.string().min(3).max(120),
  amount: AmountString,
  paymentId: PaymentIdAcross.optional(),
  to: PeerTarget.optional(),
});

export const PeerQuote = z.object({
  payee: z.object({ walletId: z.string(), name: z.string() }),
  amount: AmountString,
  currencySymbol: z.string(),
  peerAmount: AmountString,
  /** One unit of the payee's currency in the payer's, as the payee's side counts it (at most 4 decimals). */
  rate: z.string(),
  /** Asked with a payment's id: SHA-256 of the fulfilment the payee's side makes for it, base64url. */
  condition: ConditionBytes.optional(),
  /**
   * Asked `to` another association: who it is (as the asked server's link with it names it), and
   * the amount in the asked server's own currency, converted at its terms with it (`values`).
   */
  through: z
    .object({
      server: z.object({ url: z.string(), name: z.string(), currencySymbol: z.string(), publicKey: z.string() }),
      amount: AmountString,
      currencySymbol: z.string(),
      values: z.object({ via: UnitValue, to: UnitValue }),
    })
    .optional(),
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
  /** Paid through an association linked with both: its name, and the amount in its currency on the way. */
  via: z.object({ association: z.string(), amount: AmountString, currencySymbol: z.string() }).optional(),
});

export const PeerTermsBody = z.object({ terms: FederationTerms });

/**
 * A change of the sender's terms, numbered by the sender (one more at each change): the receiver
 * records it only when it is newer than the last it recorded, and answers ok to an old one or the
 * same one again, so that a change sent again until answered, or arriving late, is harmless.
 */
export const PeerLinkTermsBody = PeerTermsBody.extend({ version: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });

/**
 * The sender's owners ended the link (docs/federation.md "Ending a link"), at `endedAt` by the
 * sender's clock: the receiver ends its side of the live link with the sender's key, once.
 */
export const PeerLinkEndedBody = z.object({ endedAt: z.string().datetime({ offset: true }) });

/**
 * The sender answers at a new address now (its PUBLIC_URL changed): the receiver checks that the
 * server at `url` holds the key that signed this, and then reaches it there.
 */
export const PeerAddressChangedBody = z.object({ url: z.string().min(8).max(300) });

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
  /** The payer's name, and their association's when it is not the sender (a payment it forwards). */
  payer: z.object({ name: z.string().min(1).max(200), association: z.string().min(1).max(200).optional() }),
  memo: MemoAcross,
  /** The payee's payment request it pays (a till's), if any. */
  requestId: z.string().min(3).max(120).optional(),
  /** A payment through the receiving server: the condition the payee's side fulfils, and, to forward it, where it ends. */
  condition: ConditionBytes.optional(),
  to: PeerTarget.optional(),
});

/**
 * The payee's side made it: its member is paid, with the fulfilment of a conditioned payment. A
 * server forwarding it answers pending while the next one has not said.
 */
export const PeerPaid = z.object({
  state: z.enum(["committed", "pending"]),
  amount: AmountString,
  payerAmount: AmountString,
  fulfillment: ConditionBytes.optional(),
});

/**
 * Several quotes or payments sent together over one link, in one signed request, when more than
 * one waits for the link at once (as the ledger's group commit gathers payments): each item is
 * decided exactly as it would be alone, and its answer is its own, in order: what the route of one
 * answers, or the status and msgid of the error a request of its own would have had.
 */
const peerItem = <T extends z.ZodType>(ok: T) =>
  z.union([z.object({ ok }), z.object({ error: z.object({ status: z.number().int().min(400).max(599), msgid: z.string().max(200) }) })]);
export const PeerQuotesBody = z.object({ quotes: z.array(PeerQuoteBody).min(1).max(PEER_BATCH_MAX) });
export const PeerQuotes = z.object({ results: z.array(peerItem(PeerQuote)).max(PEER_BATCH_MAX) });
export const PeerPaymentsBody = z.object({ payments: z.array(PeerPayBody).min(1).max(PEER_BATCH_MAX) });
export const PeerPayments = z.object({ results: z.array(peerItem(PeerPaid)).max(PEER_BATCH_MAX) });

/** What became of a payment: the payee's side answers, and from then on never makes one it had not made. */
export const PeerPaymentStateBody = z.object({ paymentId: PaymentIdAcross });

export const PeerPaymentState = z.object({
  /** pending: a server forwarding it still waits for the next one's word. */
  state: z.enum(["committed", "aborted", "pending"]),
  /** Why it was refused, in the payee's side's words; null when it committed, or was asked about before it arrived. */
  reason: z.string().nullable(),
  /** A conditioned payment committed: its fulfilment. */
  fulfillment: ConditionBytes.optional(),
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

/** One of this server's federation keys, as the owners' console lists them (docs/federation.md "Key rotation and revocation"). */
export const FederationKey = z.object({
  fingerprint: z.string(),
  /** current: the one it signs with and describes; retired: replaced by a newer one; revoked: leaked, never used again. */
  state: z.enum(FEDERATION_KEY_STATES),
  createdAt: z.string(),
  /** When a newer key replaced it; null for the current key. */
  retiredAt: z.string().nullable(),
  /** When the owners revoked it; null unless revoked. */
  revokedAt: z.string().nullable(),
});

/** Where one link stands with keys, on this side. */
export const FederationLinkKeys = z.object({
  linkId: z.string(),
  /**
   * The fingerprint of the key the other side knows this server by while it has not acknowledged
   * the current one (told until it does; meanwhile this server signs to it with that key, unless
   * revoked); null once it knows the current key.
   */
  knownByThem: z.string().nullable(),
  /** The last change of the other side's key this side recorded, if any. */
  peerKeyChange: z
    .object({
      /** The key the link held before its present one. */
      previousFingerprint: z.string(),
      at: z.string(),
      /** Its server announced the new key (proved by both keys), or this side's owners replaced it with the one read aloud. */
      by: z.enum(FEDERATION_PEER_KEY_REPLACERS),
    })
    .nullable(),
});

export const FederationKeys = z.object({
  /** Newest first: the current key, then those it replaced. */
  keys: z.array(FederationKey),
  links: z.array(FederationLinkKeys),
});

/** A new key for this server: `revoke` when the keys so far leaked (never used again, and not kept), else the current one is retired. */
export const RotateFederationKeyBody = z.object({ revoke: z.boolean() });

/** The fingerprint of the other side's key, as its owners read it aloud (spaces and capitals allowed). */
export const ReplaceFederationPeerKeyBody = z.object({ fingerprint: z.string().max(200) });

/**
 * A server's new key, announced to a linked server: the message is signed by the key the receiver
 * knows it by, and `proof` is the new key's Ed25519 signature (base64url) over
 * keyRotationProofText (the receiver's address, the old key, the new key).
 */
export const PeerKeyRotatedBody = z.object({
  publicKey: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "an Ed25519 public key, base64url"),
  proof: z.string().regex(/^[A-Za-z0-9_-]{86}$/, "an Ed25519 signature, base64url"),
});
