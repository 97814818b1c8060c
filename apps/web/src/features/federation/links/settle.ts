import {
  afterSettlement,
  decodeApiAmount,
  formatCents,
  msg,
  parseUnitValue,
  settlementAmounts,
  settlementDirection,
  settlementFits,
  SM,
  type FederationLink,
  type FederationLinkBalance,
  type FederationSettlementDirection,
  type LinkBalance,
  type Msg,
} from "@mutua/domain";
import { NOT_AN_AMOUNT, parseTypedAmount } from "../../association";

/**
 * The pure part of settling a link in the console (docs/federation.md "Settlement"): what is owed
 * now as both sides read it, and what a settlement typed in the form would be in both currencies
 * and leave owed, by the same rules the server checks again.
 */

/** A settlement as typed: its amount in the language's decimal mark, the currency it counts in, a note. */
export interface SettleForm {
  amount: string;
  currency: "ours" | "theirs";
  note: string;
}

export const EMPTY_SETTLE_FORM: SettleForm = { amount: "", currency: "ours", note: "" };

/**
 * What is owed on a link from this side: which way (`pay`: we owe them), in our currency and in
 * theirs, as positive API amounts; null when nothing can be settled.
 */
export interface Debt {
  direction: FederationSettlementDirection;
  amount: string;
  peerAmount: string;
}

/** Both figures in cents. */
export const balanceCents = (b: FederationLinkBalance): LinkBalance => ({ owed: decodeApiAmount(b.owed), held: decodeApiAmount(b.held) });

const abs = (c: bigint) => formatCents(c < 0n ? -c : c);

/** What is owed, said from this side; null when neither owes the other anything a settlement could bring down. */
export function debtOf(b: LinkBalance): Debt | null {
  const direction = settlementDirection(b);
  return direction ? { direction, amount: abs(b.owed), peerAmount: abs(b.held) } : null;
}

export type SettlePreview =
  { ok: true; direction: FederationSettlementDirection; amount: string; peerAmount: string; after: Debt | null } | { ok: false; error: Msg | null };

/**
 * The settlement the form describes, at this side's terms: both amounts and what would be owed
 * after it; or why it cannot be proposed (null while nothing is typed yet).
 */
export function settlePreview(form: SettleForm, link: FederationLink, balance: FederationLinkBalance | undefined): SettlePreview {
  if (form.amount.trim() === "") return { ok: false, error: null };
  const typed = parseTypedAmount(form.amount);
  if (typed === null) return { ok: false, error: NOT_AN_AMOUNT };
  const ours = link.terms && parseUnitValue(link.terms.ourValue);
  const theirs = link.terms && parseUnitValue(link.terms.theirValue);
  if (!ours || !theirs || !link.ratesAgree) return { ok: false, error: msg(SM.federationRatesDiffer) };
  const b = balance ? balanceCents(balance) : { owed: 0n, held: 0n };
  const direction = settlementDirection(b);
  if (!direction) return { ok: false, error: msg(SM.federationSettlementNothing) };
  const { amount, peerAmount } = settlementAmounts(decodeApiAmount(typed), form.currency, { ours, theirs });
  if (amount <= 0n || peerAmount <= 0n) return { ok: false, error: msg(SM.federationSettlementAmount) };
  if (!settlementFits(b, direction, amount, peerAmount)) return { ok: false, error: msg(SM.federationSettlementPastDebt) };
  return {
    ok: true,
    direction,
    amount: formatCents(amount),
    peerAmount: formatCents(peerAmount),
    after: debtOf(afterSettlement(b, direction, amount, peerAmount)),
  };
}

/**
 * What is owed after a settlement already proposed (by either side) would be accepted, from this
 * side's figures now: null when it would leave nothing owed, or no longer fits (the server refuses
 * it then, and says so).
 */
export function afterProposal(balance: FederationLinkBalance | undefined, s: { direction: FederationSettlementDirection; amount: string; peerAmount: string }) {
  if (!balance) return { fits: false, after: null };
  const b = balanceCents(balance);
  const amount = decodeApiAmount(s.amount);
  const peerAmount = decodeApiAmount(s.peerAmount);
  const fits = settlementFits(b, s.direction, amount, peerAmount);
  return { fits, after: fits ? debtOf(afterSettlement(b, s.direction, amount, peerAmount)) : null };
}
