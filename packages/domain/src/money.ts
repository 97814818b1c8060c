/**
 * Money is an integer number of cents (bigint) everywhere inside; at the API it is a
 * decimal string with exactly two decimals. Never a float.
 */

/** Spec 5/9: the largest amount is Number.MAX_SAFE_INTEGER / 128, kept to 2 decimals. */
export const MAX_AMOUNT_CENTS = ((2n ** 53n - 1n) * 100n) / 128n;
export const MAX_AMOUNT_TEXT = formatCents(MAX_AMOUNT_CENTS);

const API_AMOUNT_RE = /^(-?)(\d{1,16})\.(\d{2})$/;

/** Parses an API amount ("12.50", "-3.00"); null for anything else (no exponent, no 3 decimals). */
export function parseApiAmount(text: string): bigint | null {
  const m = API_AMOUNT_RE.exec(text);
  if (!m) return null;
  const cents = BigInt(m[2]!) * 100n + BigInt(m[3]!);
  return m[1] === "-" ? -cents : cents;
}

/** "1234.50" for 123450n, "-0.05" for -5n. */
export function formatCents(cents: bigint): string {
  const sign = cents < 0n ? "-" : "";
  const abs = cents < 0n ? -cents : cents;
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, "0")}`;
}
