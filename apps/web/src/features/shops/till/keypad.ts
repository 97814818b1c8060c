import { MAX_AMOUNT_CENTS } from "@mutua/domain";

/**
 * The till's keypad, as card terminals and cash registers work: digits come in from the right,
 * in cents ("1", "2", "5", "0" is 12.50), so the shop never types a decimal mark nor a third
 * decimal. A key that would pass the largest amount an account can hold is ignored.
 */
export type KeypadKey = "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "00" | "back" | "clear";

export const KEYPAD_ROWS: readonly (readonly KeypadKey[])[] = [
  ["1", "2", "3"],
  ["4", "5", "6"],
  ["7", "8", "9"],
  ["00", "0", "back"],
];

export function pressKey(cents: bigint, key: KeypadKey): bigint {
  if (key === "clear") return 0n;
  if (key === "back") return cents / 10n;
  const next = cents * 10n ** BigInt(key.length) + BigInt(key);
  return next > MAX_AMOUNT_CENTS ? cents : next;
}

/** The key a physical keyboard's key stands for (a tablet's keyboard, a shop's numeric pad), or null. */
export function keyOf(e: { key: string }): KeypadKey | null {
  if (/^[0-9]$/.test(e.key)) return e.key as KeypadKey;
  if (e.key === "Backspace") return "back";
  if (e.key === "Delete") return "clear";
  return null;
}
