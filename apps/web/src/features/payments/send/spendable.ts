import { decodeApiAmount, type SubAccountView } from "@mutua/domain";

/** What the sub-accounts allow to spend (balance above each floor), in cents. */
export function spendableCents(subs: SubAccountView[]): bigint {
  return subs.reduce((sum, s) => {
    const bal = decodeApiAmount(s.bal);
    const floor = s.floor === null ? null : decodeApiAmount(s.floor);
    const room = floor === null ? bal : bal - floor;
    return sum + (room > 0n ? room : 0n);
  }, 0n);
}

/** The balance of these sub-accounts together, in cents. */
export function balanceCents(subs: SubAccountView[]): bigint {
  return subs.reduce((sum, s) => sum + decodeApiAmount(s.bal), 0n);
}

/**
 * How low the balance may go (a mutual-credit line makes it negative), in cents: the sum of the
 * sub-accounts' floors, or null when one has none (no lower bound to tell).
 */
export function floorCents(subs: SubAccountView[]): bigint | null {
  let sum = 0n;
  for (const s of subs) {
    if (s.floor === null) return null;
    sum += decodeApiAmount(s.floor);
  }
  return sum;
}

/**
 * The sub-accounts a payment may draw on: a reconversion (toward the safe wallet) takes pledged or
 * main money only, never mutual credit (the server's plan, services/payments/payments.ts).
 */
export function payableSubAccounts(subs: SubAccountView[], reconversion: boolean): SubAccountView[] {
  return reconversion ? subs.filter((s) => s.kind !== "cm") : subs;
}
