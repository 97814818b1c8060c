import type { ErrorBody, ErrorCode } from "@mutua/domain";
import type { Refusal } from "../services/platform/errors";

/** Services refuse in their own terms (services/platform/errors.ts); here alone is what that means in HTTP. */

const STATUS: Record<ErrorCode, number> = {
  invalid_credentials: 401,
  login_required: 401,
  forbidden: 403,
  validation_failed: 400,
  rate_limited: 429,
  email_taken: 409,
  unknown_user: 404,
  invalid_reset_token: 400,
  email_unconfirmed: 403,
  invalid_confirmation_token: 400,
  signup_disabled: 403,
  reset_disabled: 403,
  not_found: 404,
  insufficient_balance: 409,
  wallet_exists: 409,
  recipient_limit: 409,
  inactive_account: 409,
  account_frozen: 409,
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

/** The HTTP status of a refusal. */
export const statusOf = (r: Refusal): number => STATUS[r.code];

/** The API's error body for a refusal: the rendered message, its msgid and values, per-field messages. */
export function errorBody(r: Refusal): ErrorBody {
  const fields = r.extra.fields
    ? Object.fromEntries(Object.entries(r.extra.fields).map(([k, m]) => [k, { msgid: m.id, ...(m.values ? { values: m.values } : {}) }]))
    : undefined;
  return {
    error: {
      code: r.code,
      message: r.message,
      msgid: r.msg.id,
      ...(r.msg.values ? { values: r.msg.values } : {}),
      ...(fields ? { fields } : {}),
      ...(r.extra.retryAfter !== undefined ? { retryAfter: r.extra.retryAfter } : {}),
    },
  };
}
