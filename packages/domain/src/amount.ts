import { MAX_AMOUNT_CENTS, MAX_AMOUNT_TEXT } from "./money";
import { M } from "./messages";
import { msg, type Msg } from "./message";
import { LIMITS } from "./vocabulary";

export type AmountPurpose = "send" | "request";

export type AmountResult = { ok: true; cents: bigint; text: string } | { ok: false; error: Msg };

const DECIMAL = /^(\d*)(?:[.,](\d*))?$/;

/**
 * Reads an amount as typed (docs/spec.md §5 "Amount"): "12", "12.5", "12,50" (decimal comma) are
 * fine; the result is in cents and as the 2-decimal string the API takes. Each refusal
 * carries the spec's exact message.
 */
export function parseAmountInput(raw: string, purpose: AmountPurpose = "send"): AmountResult {
  const notPositive = msg(purpose === "send" ? M.amountSendNotPositive : M.amountRequestNotPositive);
  const text = raw.trim().replace(/[\s\u00a0\u202f]/g, "");
  const m = DECIMAL.exec(text);
  if (!m || (m[1] === "" && (m[2] ?? "") === "")) {
    // Something a number parser would still read ("1e3", "0x1f", "+5") is a mismatch between
    // what was typed and what would be sent: refuse it with the spec's warning.
    const n = text === "" ? NaN : Number(text.replace(",", "."));
    return Number.isFinite(n) && n > 0 ? { ok: false, error: msg(M.amountUnexpected) } : { ok: false, error: notPositive };
  }
  const whole = (m[1] || "0").replace(/^0+(?=\d)/, "");
  const frac = (m[2] ?? "").replace(/0+$/, "");
  if (frac.length > 2) return { ok: false, error: msg(M.amountTooManyDecimals) };
  if (whole.length > 16) return { ok: false, error: msg(M.amountTooLarge, { maxValue: MAX_AMOUNT_TEXT }) };
  const cents = BigInt(whole) * 100n + BigInt(frac.padEnd(2, "0"));
  if (cents <= 0n) return { ok: false, error: notPositive };
  if (cents > MAX_AMOUNT_CENTS) return { ok: false, error: msg(M.amountTooLarge, { maxValue: MAX_AMOUNT_TEXT }) };
  const text2 = `${cents / 100n}.${(cents % 100n).toString().padStart(2, "0")}`;
  return { ok: true, cents, text: text2 };
}

export const MEMO_MAX = LIMITS.memo;

/** docs/spec.md §5 "Memos": optional, at most 50 characters; on one line, with no direction override. */
export function memoProblem(memo: string): Msg | null {
  if ([...memo].length > MEMO_MAX) return msg(M.memoTooLong);
  return hasDeceptiveMemoCharacters(memo) ? msg(M.memoCharacters) : null;
}

/**
 * A memo is shown to the other member on one line: line breaks, control characters and direction
 * overrides (which reorder what follows: "refund \u202Etxt.exe") would make it read other than it
 * is. Direction marks and zero-width joiners stay: right-to-left scripts and emoji need them.
 */
const MEMO_DECEPTIVE = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;
export const hasDeceptiveMemoCharacters = (s: string): boolean => MEMO_DECEPTIVE.test(s);
