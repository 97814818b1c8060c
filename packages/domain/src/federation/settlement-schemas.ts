import { z } from "zod";
import { AmountString } from "../platform/schemas";
import { FEDERATION_SETTLEMENT_CURRENCIES, FEDERATION_SETTLEMENT_DIRECTIONS, FEDERATION_SETTLEMENT_ORIGINS, FEDERATION_SETTLEMENT_STATES } from "../vocabulary";
import { SETTLEMENT_NOTE_MAX } from "./settlement";

/** The contract of settling a link (docs/federation.md "Settlement"): the owners' routes, and the messages between the two servers. */

/** A settlement's id, chosen by the side that proposes it: the same on both sides. */
export const SettlementIdAcross = z.string().regex(/^fs_[A-Za-z0-9_-]{16,40}$/);

const Note = z.string().max(4 * SETTLEMENT_NOTE_MAX);

/** An owner proposes a settlement: its amount, in this side's currency or the other's (the other is converted from it), and a note for both boards. */
export const ProposeFederationSettlementBody = z.object({
  amount: AmountString,
  currency: z.enum(FEDERATION_SETTLEMENT_CURRENCIES),
  note: Note.default(""),
});

export const FederationSettlementParams = z.object({ linkId: z.string().min(1).max(64), settlementId: z.string().min(1).max(64) });

/** A settlement of a link as this side records it. */
export const FederationSettlement = z.object({
  id: z.string(),
  linkId: z.string(),
  /** This side's owners proposed it, or the other's. */
  proposedBy: z.enum(FEDERATION_SETTLEMENT_ORIGINS),
  /** pay: this side owes, and redeems its currency the other holds; receive: the other owes this side. */
  direction: z.enum(FEDERATION_SETTLEMENT_DIRECTIONS),
  /** In this side's currency, and in the other's. */
  amount: AmountString,
  peerAmount: AmountString,
  /** Which of the two the proposer gave: the other was converted from it. */
  given: z.enum(FEDERATION_SETTLEMENT_CURRENCIES),
  note: z.string(),
  /**
   * proposed: waiting for the other side's owners (or this side's, when the other proposed it);
   * withdrawing: its proposer withdrew it, the other side not told yet; withdrawn; declined;
   * accepted: posted on this side.
   */
  state: z.enum(FEDERATION_SETTLEMENT_STATES),
  /**
   * Whether the other side knows this side's last step on it (the proposal, its withdrawal, its
   * acceptance or refusal). Not yet: its server did not answer, and this server tells it again
   * until it does.
   */
  told: z.boolean(),
  createdAt: z.string(),
  /** When it was accepted, declined or withdrawn. */
  answeredAt: z.string().nullable(),
});

/**
 * A settlement proposed, as the proposer's server tells the other: which way it goes, its amount
 * in the proposer's currency (`amount`) and in the receiver's (`peerAmount`), which of the two the
 * proposer gave, and its note. Its withdrawal carries the same, so that a side that never heard of
 * it records it withdrawn, and refuses it if the proposal arrives after all.
 */
export const PeerSettlementBody = z.object({
  settlementId: SettlementIdAcross,
  /** The proposer's side owes the other and pays (true), or is paid. */
  proposerPays: z.boolean(),
  amount: AmountString,
  peerAmount: AmountString,
  given: z.enum(["amount", "peerAmount"]),
  note: Note,
  /** Of a link that ended (its balance left for the boards): the receiver's ended link with the sender, even if they linked again since. */
  ended: z.boolean().optional(),
});

/** The receiver of a proposal accepted it and posted its side: `amount` in its currency, `peerAmount` in the proposer's. */
export const PeerSettlementAcceptedBody = z.object({ settlementId: SettlementIdAcross, amount: AmountString, peerAmount: AmountString });

export const PeerSettlementIdBody = z.object({ settlementId: SettlementIdAcross });

/** Where the settlement stands on the answering side, after the message. */
export const PeerSettlementState = z.object({ state: z.enum(FEDERATION_SETTLEMENT_STATES) });

const Link = z.object({ linkId: z.string().min(1).max(64) });

/** The routes' schemas, spread into the contract's (api/schemas.ts). */
export const federationSettlementSchemas = {
  proposeFederationSettlement: { params: Link, body: ProposeFederationSettlementBody, response: FederationSettlement },
  acceptFederationSettlement: { params: FederationSettlementParams, response: FederationSettlement },
  declineFederationSettlement: { params: FederationSettlementParams, response: FederationSettlement },
  withdrawFederationSettlement: { params: FederationSettlementParams, response: FederationSettlement },
  peerSettlementProposed: { body: PeerSettlementBody, response: PeerSettlementState },
  peerSettlementWithdrawn: { body: PeerSettlementBody, response: PeerSettlementState },
  peerSettlementAccepted: { body: PeerSettlementAcceptedBody, response: PeerSettlementState },
  peerSettlementDeclined: { body: PeerSettlementIdBody, response: PeerSettlementState },
};
