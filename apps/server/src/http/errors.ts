import { ErrorCode, M, renderMsg, type ErrorBody, type Msg } from "@mutua/domain";

const STATUS: Record<ErrorCode, number> = {
  invalid_credentials: 401,
  login_required: 401,
  forbidden: 403,
  validation_failed: 400,
  rate_limited: 429,
  email_taken: 409,
  unknown_user: 404,
  invalid_reset_token: 400,
  signup_disabled: 403,
  reset_disabled: 403,
  not_found: 404,
  insufficient_balance: 409,
  wallet_exists: 409,
  recipient_limit: 409,
  inactive_account: 409,
  idempotency_conflict: 409,
  invalid_signature: 403,
  signature_expired: 403,
  backend_unavailable: 409,
  topup_pending: 409,
  state_conflict: 409,
  wrong_pin: 403,
  pin_disabled: 410,
  reauth_required: 403,
  reauth_failed: 403,
  service_unavailable: 503,
  internal_error: 500,
};

/** An error that answers with the API's error body; services throw it, the error handler sends it. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly msg: Msg,
    readonly extra: { fields?: Record<string, Msg>; retryAfter?: number } = {},
  ) {
    super(renderMsg(msg));
    this.status = STATUS[code];
  }

  body(): ErrorBody {
    const fields = this.extra.fields
      ? Object.fromEntries(Object.entries(this.extra.fields).map(([k, m]) => [k, { msgid: m.id, ...(m.values ? { values: m.values } : {}) }]))
      : undefined;
    return {
      error: {
        code: this.code,
        message: this.message,
        msgid: this.msg.id,
        ...(this.msg.values ? { values: this.msg.values } : {}),
        ...(fields ? { fields } : {}),
        ...(this.extra.retryAfter !== undefined ? { retryAfter: this.extra.retryAfter } : {}),
      },
    };
  }
}

export const loginRequired = () => new ApiError(ErrorCode.loginRequired, { id: M.loginRequired });
export const forbidden = () => new ApiError(ErrorCode.forbidden, { id: M.forbidden });
export const invalid = (fields: Record<string, Msg>) => {
  const first = Object.values(fields)[0] ?? { id: M.invalidRequest };
  return new ApiError(ErrorCode.validation, first, { fields });
};

export const notFound = () => new ApiError(ErrorCode.notFound, { id: M.notFound });
