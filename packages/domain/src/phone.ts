import { M } from "./messages";
import { msg, type Msg } from "./message";

/** The digits a phone number may have: short local numbers to the longest international ones, with room. */
export const PHONE_DIGITS = { min: 6, max: 20 } as const;
/** What a typed phone number may be made of: digits and the usual separators. */
const PHONE_CHARACTERS = /^[\d\s+\-.()]*$/;

/** A phone number as it is kept: trimmed, runs of spaces made one; empty is none (null). */
export function normalizePhone(raw: string): string | null {
  const phone = raw.trim().replace(/\s+/g, " ");
  return phone === "" ? null : phone;
}

/**
 * Why a phone number the member typed cannot be kept, or null. Lenient on purpose: members write
 * numbers their own way ("06 12 34 56 78", "+33 (0)6-12.34.56.78"), and only the characters and
 * the count of digits are checked. Empty is fine: the phone number is optional.
 */
export function phoneProblem(raw: string): Msg | null {
  const phone = normalizePhone(raw);
  if (phone === null) return null;
  if (!PHONE_CHARACTERS.test(phone)) return msg(M.phoneCharacters);
  const digits = phone.replace(/\D/g, "").length;
  if (digits < PHONE_DIGITS.min || digits > PHONE_DIGITS.max) return msg(M.phoneDigits, { min: PHONE_DIGITS.min, max: PHONE_DIGITS.max });
  return null;
}
