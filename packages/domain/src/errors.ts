/** Machine-readable error codes of the API; the client maps them to typed errors. */
export const ErrorCode = {
  invalidCredentials: "invalid_credentials",
  loginRequired: "login_required",
  forbidden: "forbidden",
  validation: "validation_failed",
  rateLimited: "rate_limited",
  emailTaken: "email_taken",
  unknownUser: "unknown_user",
  invalidResetToken: "invalid_reset_token",
  /** The password is right, but the member has not opened the link sent to their address at sign-up. */
  emailUnconfirmed: "email_unconfirmed",
  invalidConfirmationToken: "invalid_confirmation_token",
  signupDisabled: "signup_disabled",
  resetDisabled: "reset_disabled",
  notFound: "not_found",
  insufficientBalance: "insufficient_balance",
  walletExists: "wallet_exists",
  recipientLimit: "recipient_limit",
  inactiveAccount: "inactive_account",
  /** The payer's or payee's wallet is frozen by the association. */
  accountFrozen: "account_frozen",
  idempotencyConflict: "idempotency_conflict",
  invalidSignature: "invalid_signature",
  signatureExpired: "signature_expired",
  backendUnavailable: "backend_unavailable",
  topUpPending: "topup_pending",
  stateConflict: "state_conflict",
  wrongPin: "wrong_pin",
  pinDisabled: "pin_disabled",
  /** The operation adds a lasting credential: the session must prove the password again first. */
  reauthRequired: "reauth_required",
  /** A step-up confirmation failed (not a 401: the session itself is fine). */
  reauthFailed: "reauth_failed",
  unavailable: "service_unavailable",
  internal: "internal_error",
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Body of every non-2xx answer of the API. */
export interface ErrorBody {
  error: {
    code: ErrorCode;
    /** English text, for logs and non-translating clients. */
    message: string;
    /** Translation key and values of `message`. */
    msgid?: string;
    values?: Record<string, string | number>;
    /** Per-field messages for validation errors, as msgids. */
    fields?: Record<string, { msgid: string; values?: Record<string, string | number> }>;
    /** Seconds to wait, for rate_limited. */
    retryAfter?: number;
  };
}
