import { RefusedError } from "@mutua/client";
import { ErrorCode, M, type Msg } from "@mutua/domain";

// Apart from the sign-in page's messages (errors.ts): only the pages a link or a button opens
// from it (reset, sign-up, confirmation) need these, and they load without weighing on it.

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
