import type { ErrorBody, ErrorCode, Msg } from "@mutua/domain";

/** Base of every error the client library throws; the app maps each kind to the spec's messages. */
export abstract class ClientError extends Error {
  abstract readonly kind: "request-failed" | "invalid-credentials" | "login-required" | "refused" | "unexpected";
}

/** The server could not be reached, did not answer in time, or its gateway said it is down. */
export class RequestFailedError extends ClientError {
  readonly kind = "request-failed" as const;
}

/** Wrong e-mail or password at login. */
export class InvalidCredentialsError extends ClientError {
  readonly kind = "invalid-credentials" as const;
}

/** The session is missing, expired or revoked (HTTP 401 on a private call). */
export class LoginRequiredError extends ClientError {
  readonly kind = "login-required" as const;
}

/** The server understood and refused the request (4xx with an error body). */
export class RefusedError extends ClientError {
  readonly kind = "refused" as const;
  constructor(
    readonly status: number,
    readonly body: ErrorBody["error"],
  ) {
    super(body.message);
  }
  get code(): ErrorCode {
    return this.body.code;
  }
  /** The message as a translatable msgid with its values. */
  get msg(): Msg {
    return { id: this.body.msgid ?? this.body.message, ...(this.body.values ? { values: this.body.values } : {}) };
  }
  /** Per-field messages of a validation error. */
  get fields(): Record<string, Msg> {
    const out: Record<string, Msg> = {};
    for (const [k, v] of Object.entries(this.body.fields ?? {})) out[k] = { id: v.msgid, ...(v.values ? { values: v.values } : {}) };
    return out;
  }
}

/** Anything else: a server error, or an answer that is not what the contract says. */
export class UnexpectedError extends ClientError {
  readonly kind = "unexpected" as const;
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}
