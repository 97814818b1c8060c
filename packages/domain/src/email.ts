import { M } from "./messages";
import { msg, type Msg } from "./message";

export const EMAIL_MAX = 254;

/** docs/spec.md §5: the e-mail is trimmed and lower-cased before it is sent or stored. */
export const normalizeEmail = (raw: string): string => raw.trim().toLowerCase();

// Basic shape only (docs/spec.md §5): unlike Monujo's pattern it accepts "+" tags, apostrophes and IDN domains.
const EMAIL_RE = /^[^\s@"<>(),;:\\[\]]+@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}]{2,}$/u;

export const isValidEmail = (email: string): boolean => EMAIL_RE.test(email);

/** Error for an e-mail field of the signup form, or null. */
export function emailProblem(raw: string): Msg | null {
  const email = normalizeEmail(raw);
  if (email === "") return msg(M.fieldEmpty);
  if (email.length > EMAIL_MAX) return msg(M.fieldTooLong, { max: EMAIL_MAX });
  if (!isValidEmail(email)) return msg(M.invalidEmail);
  return null;
}
