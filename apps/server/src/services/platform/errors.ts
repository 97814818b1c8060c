import { ErrorCode, M, renderMsg, type Msg, SM } from "@mutua/domain";

/**
 * A refusal of the rules: what was refused (an ErrorCode) and why (a message the member reads).
 * Services throw it without knowing who asked; `http/errors.ts` turns it into a status and the
 * API's error body, and the Lokavaluto face into the shapes its clients expect.
 */
export class Refusal extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly msg: Msg,
    /** Messages per input field, and when to try again (rate limits). */
    readonly extra: { fields?: Record<string, Msg>; retryAfter?: number } = {},
  ) {
    super(renderMsg(msg));
  }
}

export const loginRequired = () => new Refusal(ErrorCode.loginRequired, { id: SM.loginRequired });
export const forbidden = () => new Refusal(ErrorCode.forbidden, { id: M.forbidden });
/** Bad input: the first field's message is the refusal's own. */
export const invalid = (fields: Record<string, Msg>) => {
  const first = Object.values(fields)[0] ?? { id: M.invalidRequest };
  return new Refusal(ErrorCode.validation, first, { fields });
};
export const notFound = () => new Refusal(ErrorCode.notFound, { id: M.notFound });
