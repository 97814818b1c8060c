import { z } from "zod";
import type { RouteName } from "./routes";
import { EMAIL_MAX } from "../email";
import { NAME_MAX } from "../names";
import { MEMBER_PASSWORD_RULES } from "../password";

/** One request/response contract for the server (validation, OpenAPI) and the client (types). */

const Ok = z.object({ ok: z.literal(true) });
const Allowed = z.object({ allowed: z.boolean() });
const Empty = z.object({}).strict();

export const Profile = z.object({
  id: z.number().int(),
  name: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
});

export const LoginBody = z.object({
  login: z.string().max(EMAIL_MAX + 64),
  password: z.string().max(1024),
});

export const LoginResult = z.object({
  /** Also set as an HttpOnly cookie; returned for clients without cookies (CLI, native shells). */
  token: z.string(),
  expiresAt: z.string(),
  profile: Profile,
});

export const SignupBody = z.object({
  email: z.string().max(EMAIL_MAX + 64),
  firstName: z.string().max(NAME_MAX + 64),
  lastName: z.string().max(NAME_MAX + 64),
  password: z.string().max(MEMBER_PASSWORD_RULES.maxLength),
});

export const ResetPasswordBody = z.object({ email: z.string().max(EMAIL_MAX + 64) });

export const NewPasswordBody = z.object({
  token: z.string().min(1).max(200),
  password: z.string().max(MEMBER_PASSWORD_RULES.maxLength),
});

export const BackendKind = z.enum(["ledger", "custodial"]);

export const Currency = z.object({ id: z.string(), name: z.string(), symbol: z.string() });

export const UserAccountRef = z.object({ id: z.string(), active: z.boolean() });

export const Backend = z.object({
  /** "kind:name": the part before the colon is the spec's "backend". */
  id: z.string(),
  kind: BackendKind,
  name: z.string(),
  currency: Currency,
  userAccounts: z.array(UserAccountRef),
  canCreateUserAccount: z.boolean(),
});

export const Health = z.object({ status: z.literal("ok"), version: z.string() });

export const schemas = {
  health: { response: Health },
  login: { body: LoginBody, response: LoginResult },
  logout: { response: Ok },
  canSignup: { response: Allowed },
  canResetPassword: { response: Allowed },
  signup: { body: SignupBody, response: Ok },
  resetPassword: { body: ResetPasswordBody, response: Ok },
  setNewPassword: { body: NewPasswordBody, response: Ok },
  getMyContact: { response: Profile },
  hasUserAccountValidationRights: { response: Allowed },
  hasCreditRequestValidationRights: { response: Allowed },
  getBackends: { response: z.array(Backend) },
} satisfies Record<RouteName, { body?: z.ZodType; query?: z.ZodType; response: z.ZodType }>;

export { Empty };
