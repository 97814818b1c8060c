import {
  fillPath,
  memberRoutes,
  type MemberRouteName,
  type PathParams,
  type RouteName,
  type BodyOf,
  type QueryOf,
  type ResponseOf,
  type ErrorBody,
} from "@mutua/domain";
import type { EventSourceConstructor, StreamAccess } from "./events";
import { InvalidCredentialsError, LoginRequiredError, RefusedError, RequestFailedError, UnexpectedError } from "./errors";

/** docs/spec.md §7: every request gives up after 20 seconds. */
export const REQUEST_TIMEOUT_MS = 20_000;

export interface ClientOptions {
  /** Origin (and optional path prefix) of the Mutua server. */
  baseUrl: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /**
   * Session token for clients without a cookie jar (CLI, tests, native shells). Browsers on the
   * server's own origin need none: the HttpOnly cookie set at login carries the session.
   */
  getToken?: () => string | null | undefined;
  /** Called when a private call answers 401: the session is gone. */
  onLoginRequired?: () => void;
  /** For subscribe outside browsers (Node.js before 22 has none): the `eventsource` package's. */
  EventSource?: EventSourceConstructor;
}

type ParamsArg<K extends RouteName> = PathParams<K> extends undefined ? { params?: undefined } : { params: PathParams<K> };
type BodyArg<K extends RouteName> = BodyOf<K> extends undefined ? { body?: undefined } : { body: BodyOf<K> };
type QueryArg<K extends RouteName> =
  QueryOf<K> extends undefined ? { query?: undefined } : object extends QueryOf<K> ? { query?: QueryOf<K> } : { query: QueryOf<K> };

/**
 * A call's arguments, read from the contract: `params` exactly when the operation's path has
 * parameters, `body` when it takes one, `query` when its query has a field without a default.
 */
export type Args<K extends RouteName> = ParamsArg<K> & BodyArg<K> & QueryArg<K> & { idempotencyKey?: string };

/** What follows an operation's name in a call: its arguments, which may be left out when none is required. */
export type ArgsOf<K extends RouteName> = object extends Args<K> ? [args?: Args<K>] : [args: Args<K>];

const GATEWAY_DOWN = new Set([502, 503, 504]);

/**
 * The typed client of the Mutua API. Every operation of the members' half of the route table
 * (`memberRoutes`, packages/domain/src/api/routes.ts) is one `call` by its name, its arguments and
 * answer typed by the contract: `client.call("getBalance", { params: { walletId } })`.
 */
export class MutuaClient {
  readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** Calls one operation of the members' part of the contract by name (the administrators' part: ./admin.ts). */
  call<K extends MemberRouteName>(name: K, ...[args]: ArgsOf<K>): Promise<ResponseOf<K>> {
    return this.send(name, memberRoutes[name], args);
  }

  /** Sends one call of an operation whose route the caller holds. */
  async send<K extends RouteName>(name: K, route: { method: string; path: string }, args: Partial<Args<K>> = {}): Promise<ResponseOf<K>> {
    const path = fillPath(route.path, args.params as Record<string, string | number> | undefined, name);
    const url = new URL(this.baseUrl + path);
    if (args.query) {
      for (const [k, v] of Object.entries(args.query as Record<string, unknown>)) {
        if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
      }
    }
    const headers: Record<string, string> = { Accept: "application/json" };
    const token = this.options.getToken?.();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (args.idempotencyKey) headers["Idempotency-Key"] = args.idempotencyKey;
    let body: string | undefined;
    if (args.body !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(args.body);
    }

    let res: Response;
    try {
      res = await this.fetchImpl(url, {
        method: route.method,
        headers,
        body,
        credentials: "include",
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (e) {
      throw new RequestFailedError(`${route.method} ${path}: ${(e as Error).message}`, { cause: e });
    }

    if (res.ok) {
      // Reading the body is still part of the request: a timeout or a cut connection there is a
      // failed request, not a malformed answer.
      let text: string;
      try {
        text = await res.text();
      } catch (e) {
        throw new RequestFailedError(`${route.method} ${path}: ${(e as Error).message}`, { cause: e });
      }
      try {
        return JSON.parse(text) as ResponseOf<K>;
      } catch {
        throw new UnexpectedError(`${route.method} ${path}: answer is not JSON`, res.status);
      }
    }
    if (GATEWAY_DOWN.has(res.status)) throw new RequestFailedError(`${route.method} ${path}: HTTP ${res.status}`);

    const error = await readErrorBody(res);
    if (res.status === 401) {
      if (name === "login" || name === "passkeyLogin" || name === "deviceLogin") throw new InvalidCredentialsError(error?.message ?? "Invalid credentials");
      this.options.onLoginRequired?.();
      throw new LoginRequiredError(error?.message ?? "Login required");
    }
    if (res.status >= 400 && res.status < 500 && error) throw new RefusedError(res.status, error);
    throw new UnexpectedError(`${route.method} ${path}: HTTP ${res.status}${error ? `: ${error.message}` : ""}`, res.status);
  }

  /** How this client reaches the member's event stream (subscribe in events.ts follows it). */
  streamAccess(): StreamAccess {
    return { baseUrl: this.baseUrl, EventSource: this.options.EventSource, fetch: this.fetchImpl, token: this.options.getToken?.() };
  }
}

async function readErrorBody(res: Response): Promise<ErrorBody["error"] | null> {
  try {
    const json = (await res.json()) as Partial<ErrorBody>;
    return json && typeof json.error === "object" && typeof json.error.message === "string" ? json.error : null;
  } catch {
    return null;
  }
}
