import { InvalidCredentialsError, RefusedError, RequestFailedError } from "@mutua/client";
import { ErrorCode, M, type Msg } from "@mutua/domain";

/** docs/spec.md §8 "Login": the four messages, plus the server's own text when it slows down guessing. */
export function loginErrorMessage(e: unknown): Msg {
  if (e instanceof InvalidCredentialsError) return { id: M.invalidCredentials };
  // A right password whose address is not confirmed yet: the server says what to do.
  if (e instanceof RefusedError) return e.code === ErrorCode.rateLimited || e.code === ErrorCode.emailUnconfirmed ? e.msg : { id: M.loginRefused };
  if (e instanceof RequestFailedError) return { id: M.requestFailed };
  return { id: M.loginUnexpected };
}
