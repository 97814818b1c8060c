/**
 * Money is an integer number of cents (bigint) everywhere inside; at the API it is a
 * decimal string with exactly two decimals. Never a float.
 */

/** docs/spec.md §5/9: the largest amount is Number.MAX_SAFE_INTEGER / 128, kept to 2 decimals. */
export const MAX_AMOUNT_CENTS = ((2n ** 53n - 1n) * 100n) / 128n;
export const MAX_AMOUNT_TEXT = formatCents(MAX_AMOUNT_CENTS);

const API_AMOUNT_RE = /^(-?)(\d{1,16})\.(\d{2})$/;

/**
 * An integer number of cents that came from a checked source (an API amount, the amount parser),
 * not any bigint: a count of items or a timestamp cannot pass for money. Arithmetic on it gives a
 * plain bigint again; `asCents` says it is still money.
 */
export type Cents = bigint & { readonly __money: "cents" };
export const asCents = (c: bigint): Cents => c as Cents;

/** An amount with its currency's symbol, as the app shows it. */
export interface Money {
  cents: Cents;
  currency: string;
}

/** Parses an API amount ("12.50", "-3.00"); null for anything else (no exponent, no 3 decimals). */
export function parseApiAmount(text: string): Cents | null {
  const m = API_AMOUNT_RE.exec(text);
  if (!m) return null;
  const cents = BigInt(m[2]!) * 100n + BigInt(m[3]!);
  return asCents(m[1] === "-" ? -cents : cents);
}

/**
 * An amount the API sent. The contract guarantees its form, so anything else is a bug to report,
 * never an amount to show as 0.00.
 */
export function decodeApiAmount(text: string): Cents {
  const c = parseApiAmount(text);
  if (c === null) throw new TypeError(`not an API amount: ${JSON.stringify(text)}`);
  return c;
}

/** The size of an amount, whatever its direction (a payment sent shows as 2.50, not -2.50). */
export const absCents = (c: Cents): Cents => asCents(c < 0n ? -c : c);

/** "1234.50" for 123450n, "-0.05" for -5n. */
export function formatCents(cents: bigint): string {
  const sign = cents < 0n ? "-" : "";
  const abs = cents < 0n ? -cents : cents;
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, "0")}`;
}
