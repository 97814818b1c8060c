import { emailProblem } from "./email";
import { nameProblem } from "./names";
import { passwordProblems, type PasswordRules, MEMBER_PASSWORD_RULES } from "./password";
import { M } from "./messages";
import { msg, type Msg } from "./message";

export interface SignupValues {
  email: string;
  firstName: string;
  lastName: string;
  password: string;
  confirmPassword: string;
}

export type SignupField = keyof SignupValues;

/** Every problem of a signup form, one message per field (docs/spec.md §5 "Signup"). */
export function signupProblems(v: SignupValues, rules: PasswordRules = MEMBER_PASSWORD_RULES): Partial<Record<SignupField, Msg>> {
  const out: Partial<Record<SignupField, Msg>> = {};
  const email = emailProblem(v.email);
  if (email) out.email = email;
  const first = nameProblem(v.firstName);
  if (first) out.firstName = first;
  const last = nameProblem(v.lastName);
  if (last) out.lastName = last;
  const pw = newPasswordProblems(v.password, v.confirmPassword, rules);
  Object.assign(out, pw);
  return out;
}

/** Password plus confirmation, shared by signup and the new-password form of the reset link. */
export function newPasswordProblems(
  password: string,
  confirmPassword: string,
  rules: PasswordRules = MEMBER_PASSWORD_RULES,
): { password?: Msg; confirmPassword?: Msg } {
  const out: { password?: Msg; confirmPassword?: Msg } = {};
  const [first] = passwordProblems(password, rules);
  if (password === "") out.password = msg(M.fieldEmpty);
  else if (first) out.password = first;
  if (confirmPassword !== password) out.confirmPassword = msg(M.passwordsNotEqual);
  return out;
}
