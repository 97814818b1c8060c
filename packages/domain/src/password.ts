import { M } from "./messages";
import { msg, type Msg } from "./message";

export type CharClass = "lower" | "upper" | "digit" | "symbol";

export interface PasswordRules {
  minLength: number;
  maxLength: number;
  classes: readonly CharClass[];
}

/** Rules of member (sign-in) passwords; the message of docs/spec.md §5 names all four classes, so all four are required. */
export const MEMBER_PASSWORD_RULES: PasswordRules = {
  minLength: 8,
  maxLength: 256,
  classes: ["lower", "upper", "digit", "symbol"],
};

const CLASS_TESTS: Record<CharClass, RegExp> = {
  lower: /\p{Ll}/u,
  upper: /\p{Lu}/u,
  digit: /\p{Nd}/u,
  symbol: /[^\p{L}\p{Nd}]/u,
};

/** The strength messages of docs/spec.md §5 that apply to `password` (empty when strong enough). */
export function passwordProblems(password: string, rules: PasswordRules = MEMBER_PASSWORD_RULES): Msg[] {
  const problems: Msg[] = [];
  if ([...password].length < rules.minLength) problems.push(msg(M.passwordTooShort, { n: rules.minLength }));
  if (password.length > rules.maxLength) problems.push(msg(M.fieldTooLong, { max: rules.maxLength }));
  if (rules.classes.some((c) => !CLASS_TESTS[c].test(password))) problems.push(msg(M.passwordClasses));
  return problems;
}
