/**
 * How a payment from a ledger wallet is split between its two sub-accounts, as Comchain does:
 * first the payer's positive mutual credit (CM), capped by the room under the payee's CM
 * ceiling, then pledged money (Nant), then CM credit down to the payer's floor.
 */
export interface PayerBalances {
  nant: bigint;
  cm: bigint;
  /** Lowest allowed CM balance (0 or negative). */
  cmFloor: bigint;
}

export interface PayeeBalances {
  cm: bigint;
  /** Highest allowed CM balance; null when unbounded. */
  cmCeiling: bigint | null;
}

export interface Split {
  cm: bigint;
  nant: bigint;
}

export type SplitResult = { ok: true; split: Split } | { ok: false; spendable: bigint };

const min = (...xs: bigint[]) => xs.reduce((a, b) => (b < a ? b : a));
const max0 = (x: bigint) => (x > 0n ? x : 0n);

export function splitPayment(amount: bigint, payer: PayerBalances, payee: PayeeBalances): SplitResult {
  if (amount <= 0n) throw new Error("splitPayment: amount must be positive");
  const room = payee.cmCeiling === null ? amount : max0(payee.cmCeiling - payee.cm);
  const fromPositiveCm = min(amount, max0(payer.cm), room);
  let rest = amount - fromPositiveCm;
  const fromNant = min(rest, max0(payer.nant));
  rest -= fromNant;
  const fromCredit = min(rest, max0(payer.cm - fromPositiveCm - payer.cmFloor), room - fromPositiveCm);
  rest -= fromCredit;
  if (rest > 0n) return { ok: false, spendable: amount - rest };
  return { ok: true, split: { cm: fromPositiveCm + fromCredit, nant: fromNant } };
}

/** What a payer could send at most to this payee. */
export function spendable(payer: PayerBalances, payee: PayeeBalances): bigint {
  const room = payee.cmCeiling === null ? null : max0(payee.cmCeiling - payee.cm);
  const cmOut = max0(payer.cm - payer.cmFloor);
  return max0(payer.nant) + (room === null ? cmOut : min(cmOut, room));
}
