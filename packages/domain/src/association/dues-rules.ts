/**
 * Dues' pure arithmetic (the schemas are in dues.ts): a demurrage rate is kept in millionths of the
 * balance, exactly, and written back as the percent the owners typed.
 */

/** A rate's value in millionths of the balance ("0.5" percent: 5000), exactly. */
export function rateMillionths(rate: string): number {
  const [whole, frac = ""] = rate.split(".");
  return Number(whole) * 10_000 + Number(frac.padEnd(4, "0"));
}

/** A rate in millionths, written back as its percent ("5000": "0.5"). */
export function rateText(millionths: number): string {
  const whole = Math.floor(millionths / 10_000);
  const frac = String(millionths % 10_000)
    .padStart(4, "0")
    .replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : String(whole);
}

/**
 * The demurrage due on a balance: `millionths` of its positive part, in whole cents rounded
 * down, in the member's favour (a balance of 1.99 at 0.5 % owes nothing: 0.00995 is under a
 * cent). Nothing is due on a balance at or below zero.
 */
export function demurrageCents(balance: bigint, millionths: number): bigint {
  if (balance <= 0n) return 0n;
  return (balance * BigInt(millionths)) / 1_000_000n;
}
