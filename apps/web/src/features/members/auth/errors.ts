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

/** docs/spec.md §8 "Reset password" and signup: known refusals by their text, anything else the generic one. */
export function accountErrorMessage(e: unknown): Msg {
  if (e instanceof RefusedError) {
    switch (e.code) {
      case ErrorCode.emailTaken:
      case ErrorCode.unknownUser:
      case ErrorCode.rateLimited:
      case ErrorCode.invalidResetToken:
      case ErrorCode.invalidConfirmationToken:
      case ErrorCode.signupDisabled:
      case ErrorCode.resetDisabled:
      case ErrorCode.validation:
        return e.msg;
    }
  }
  return { id: M.loginUnexpected };
}
