/**
 * The arithmetic of settling a link (docs/federation.md "Settlement"), pure: which way a
 * settlement goes, whether it fits what is owed, the amounts in both currencies, the balance after,
 * and how it is spread over the link's clearing wallets. Integers only (cents, bigint).
 *
 * One side's two figures of a link are `owed`, its clearing wallets' balance (in its own currency:
 * what it owes the other when above zero), and `held`, what it holds of the other's currency (in
 * it). The other side's are the same two, swapped: its `held` is this side's `owed`, its `owed` this
 * side's `held`. A side that owes (owed > 0) holds less than none of the other's (held < 0): the one
 * debt, in two currencies.
 */
import { convertCents } from "../federation";
import { hasDeceptiveNameCharacters } from "../names";
import type { FederationSettlementDirection } from "../vocabulary";

/** A side's figures of a link, in cents: its clearing wallets' balance in its currency, and what it holds of the other's in theirs. */
export interface LinkBalance {
  owed: bigint;
  held: bigint;
}

/**
 * Which way a settlement would go from this side: `pay` when it owes the other (its clearing
 * wallets above zero and what it holds of theirs below), `receive` the other way round; null when
 * there is nothing to settle: nothing owed, or the two figures not saying the same debt (both of
 * one sign, as a change of rate between payments can leave them): only payments can settle that.
 */
export function settlementDirection(b: LinkBalance): FederationSettlementDirection | null {
  if (b.owed > 0n && b.held < 0n) return "pay";
  if (b.owed < 0n && b.held > 0n) return "receive";
  return null;
}

/**
 * The balance after a settlement of `amount` (this side's currency) and `peerAmount` (the
 * other's): paying, this side's clearing wallets go down by the first and what it holds of the
 * other's up by the second; receiving, the other way round. The other side's two figures move by
 * the same two amounts, so each side's clearing balance still equals what the other holds.
 */
export function afterSettlement(b: LinkBalance, direction: FederationSettlementDirection, amount: bigint, peerAmount: bigint): LinkBalance {
  return direction === "pay" ? { owed: b.owed - amount, held: b.held + peerAmount } : { owed: b.owed + amount, held: b.held - peerAmount };
}

/**
 * Whether a settlement fits the debt as it stands: it goes the debt's way, both amounts are more
 * than zero, and it brings each figure toward zero, never past it (a settlement never turns a debt
 * into the other's).
 */
export function settlementFits(b: LinkBalance, direction: FederationSettlementDirection, amount: bigint, peerAmount: bigint): boolean {
  if (amount <= 0n || peerAmount <= 0n || settlementDirection(b) !== direction) return false;
  const after = afterSettlement(b, direction, amount, peerAmount);
  return direction === "pay" ? after.owed >= 0n && after.held <= 0n : after.owed <= 0n && after.held >= 0n;
}

/**
 * Both amounts of a settlement from the one given, at one side's values of the two currencies
 * (ten-thousandths of the common unit): the other converted as a payment's is, half to even to the
 * cent. Both sides convert from the same given amount, in the same direction, with values of the
 * same ratio: they find the same cents.
 */
export function settlementAmounts(cents: bigint, given: "ours" | "theirs", values: { ours: bigint; theirs: bigint }): { amount: bigint; peerAmount: bigint } {
  return given === "ours"
    ? { amount: cents, peerAmount: convertCents(cents, values.ours, values.theirs) }
    : { amount: convertCents(cents, values.theirs, values.ours), peerAmount: cents };
}

/**
 * How a settlement of `amount` is spread over a link's clearing wallets (one per backend): from the
 * wallet furthest from zero on the debt's side (paying: the highest balance; receiving: the lowest)
 * to the nearest, each taken at most to zero, ties by id. Nothing is left over when the wallets'
 * balances cover the amount, as a settlement that fits makes them. Should they not (the proposer's
 * side posting what the other side accepted, while a payment across was between its two steps),
 * what is left goes to the first wallet of the list, or to the first by id when none is on the
 * debt's side; with no wallet at all, the list is empty.
 */
export function settlementSplit(
  wallets: readonly { id: string; balance: bigint }[],
  amount: bigint,
  direction: FederationSettlementDirection,
): { id: string; amount: bigint }[] {
  const sign = direction === "pay" ? 1n : -1n;
  const onSide = wallets
    .filter((w) => w.balance * sign > 0n)
    .sort((a, b) => (b.balance * sign > a.balance * sign ? 1 : b.balance * sign < a.balance * sign ? -1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const parts: { id: string; amount: bigint }[] = [];
  let left = amount;
  for (const w of onSide) {
    if (left === 0n) break;
    const take = w.balance * sign < left ? w.balance * sign : left;
    parts.push({ id: w.id, amount: take });
    left -= take;
  }
  if (left > 0n) {
    if (parts.length > 0) parts[0] = { id: parts[0]!.id, amount: parts[0]!.amount + left };
    else {
      const first = [...wallets].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))[0];
      if (first) parts.push({ id: first.id, amount: left });
    }
  }
  return parts;
}

/**
 * The other currency's amount of each part of a settlement spread over several wallets: in
 * proportion, rounded on the running total (half to even), so that every part is at least zero and
 * they add up to `peerAmount` exactly.
 */
export function peerParts(parts: readonly bigint[], amount: bigint, peerAmount: bigint): bigint[] {
  let running = 0n;
  let before = 0n;
  return parts.map((p) => {
    running += p;
    const upTo = convertCents(running, peerAmount, amount);
    const part = upTo - before;
    before = upTo;
    return part;
  });
}

/** The longest note of a settlement: a reference to the transfer in euros, a word for the other board. */
export const SETTLEMENT_NOTE_MAX = 200;

/**
 * A settlement's note as stored and shown to both boards; null when it is not allowed: longer
 * than the limit, or with a control character or one that makes it display other than it reads.
 * Spaces at either end are dropped; empty is allowed.
 */
export function settlementNote(raw: string): string | null {
  if (raw.length > 4 * SETTLEMENT_NOTE_MAX) return null;
  const note = raw.normalize("NFC").trim();
  if (note.length > SETTLEMENT_NOTE_MAX || /\p{Cc}/u.test(note) || hasDeceptiveNameCharacters(note)) return null;
  return note;
}
