import { asCents, type Cents } from "./money";

/**
 * A bill shared by `n` people: equal parts, the cents that do not divide going one each to the
 * first parts, so that the parts always add up to the bill (9.00 by 2 is 4.50 and 4.50; 10.00 by 3
 * is 3.34, 3.33 and 3.33). Every part is at least a cent, or there is no split.
 */
export function splitEvenly(total: Cents, n: number): Cents[] | null {
  if (!Number.isInteger(n) || n < 1 || total < BigInt(n)) return null;
  const share = total / BigInt(n);
  const extra = Number(total % BigInt(n));
  return Array.from({ length: n }, (_, i) => asCents(share + (i < extra ? 1n : 0n)));
}
