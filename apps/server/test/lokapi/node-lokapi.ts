import { LokAPIAbstract, RestExc, e as lokapiExc, type t as lokapiTypes } from "@lokavaluto/lokapi";
import CyclosBackendAbstract from "@lokavaluto/lokapi-backend-cyclos";
import { e as reqExc, type t as reqTypes } from "@0k/types-request";

/**
 * The unmodified Lokavaluto client library (what Monujo runs in the browser), hosted in Node.
 *
 * Monujo subclasses `LokAPIBrowserAbstract` from @lokavaluto/lokapi-browser, which only adds a
 * fetch-based `httpRequest`, a localStorage store and `base64Encode`. Here we subclass
 * `LokAPIAbstract` directly and give it the same three things, built on Node's fetch and a Map.
 * @0k/browser-request is the model of httpRequest: raw body text back, HttpError with the body on non-2xx.
 *
 * The packages ship ES modules in `.js` files of a package without `"type": "module"`, and import
 * extensionless paths and directories. Vitest loads them only when it transforms them itself:
 * the "server" project of vitest.config.ts inlines `@lokavaluto/*` and `@0k/*` for that. The error
 * classes below must come from the very module instances the library uses, or `instanceof` fails:
 * always import them from here.
 */

export { RestExc, lokapiExc, reqExc };

/** One HTTP exchange the library made, for assertions ("no request") and failure messages. */
export interface LoggedRequest {
  method: string;
  url: string;
  status: number | "network error";
}

/** lokapi's `IPersistentStore` (localStorage in Monujo, with its "LokAPI" prefix): synchronous, strings only. */
export class MemoryStore implements lokapiTypes.IPersistentStore {
  readonly map = new Map<string, string>();
  constructor(readonly prefix = "LokAPI") {}
  get(key: string, defaultValue?: string): string {
    return this.map.get(this.prefix + key) ?? (defaultValue as string);
  }
  set(key: string, value: string): void {
    this.map.set(this.prefix + key, value);
  }
  del(key: string): void {
    this.map.delete(this.prefix + key);
  }
}

/** The store key under which lokapi keeps the Odoo API token: `token_` + base64("odoo") without padding. */
export const ODOO_TOKEN_KEY = `token_${Buffer.from("odoo").toString("base64").replace(/=/g, "")}`;

/**
 * lokapi's `HttpRequest`, with @0k/browser-request's semantics (which Monujo uses):
 * - the URL is `protocol://host:port/` + path (the path already carries the query string);
 * - object data goes as a JSON body, string data as is, no data means no body;
 * - a network failure throws `RequestFailed`, a non-2xx answer throws `HttpError` with the status
 *   as `code` and the body text as `data` (the Cyclos plugin `JSON.parse`s it to find `code`);
 * - on success the response headers are copied (lower-cased names: the plugin reads
 *   `x-has-next-page`) and the raw body text is returned (lokapi parses it itself).
 */
export function makeHttpRequest(log: LoggedRequest[], timeoutMs = 20_000): reqTypes.HttpRequest {
  return async (opts: reqTypes.coreHttpOpts): Promise<string> => {
    let url = `${opts.protocol}://${opts.host}`;
    if (opts.port) url += `:${opts.port}`;
    if (opts.path) url += `/${opts.path.replace(/^\//, "")}`;
    const body = opts.data ? (typeof opts.data === "string" ? opts.data : JSON.stringify(opts.data)) : undefined;
    let response: Response;
    try {
      response = await fetch(url, {
        method: opts.method,
        headers: (opts.headers ?? {}) as Record<string, string>,
        ...(body !== undefined ? { body } : {}),
        signal: AbortSignal.timeout(opts.timeout ?? timeoutMs),
      });
    } catch (err) {
      log.push({ method: opts.method, url, status: "network error" });
      throw new reqExc.RequestFailed((err as Error).message);
    }
    log.push({ method: opts.method, url, status: response.status });
    // LOKAPI_TRACE=1 prints the library's requests (console.log is silenced by the tests).
    if (process.env.LOKAPI_TRACE) process.stderr.write(`[lokapi] ${opts.method} ${url} → ${response.status}\n`);
    if (!response.ok) {
      // The message is the status text, as in @0k/browser-request, plus the request so that a failed
      // test says which call failed (lokapi reads only `code` and `data`).
      throw new reqExc.HttpError(response.status, `${response.statusText} (${opts.method} ${opts.path})`, await response.text(), response);
    }
    if (opts.responseHeaders) for (const [name, value] of response.headers) opts.responseHeaders[name] = value;
    return await response.text();
  };
}

/** `new NodeLokAPI(baseUrl, "odoo")` as Monujo does `new LokAPI(lokapiHost, lokapiDb)`; the URL must have no trailing slash. */
export class NodeLokAPI extends LokAPIAbstract {
  /** Every request made, in order. */
  readonly requests: LoggedRequest[] = [];
  /** How many times the library asked the app to show its login screen (session lost). */
  requestLoginCalls = 0;

  // The key is the prefix of BackendData.type before ":" ("cyclos:<host:port>").
  BackendFactories = { cyclos: CyclosBackendAbstract };
  httpRequest = makeHttpRequest(this.requests);
  base64Encode = (s: string) => Buffer.from(s).toString("base64");
  persistentStore = new MemoryStore("LokAPI");
  // An arrow function on purpose: lokapi copies this reference onto the Cyclos clients it builds,
  // which call it with their own `this`.
  requestLogin = () => {
    this.requestLoginCalls++;
  };

  // Only the Comchain plugin asks for a wallet password; the Cyclos one never does.
  override async requestLocalPassword(): Promise<never> {
    throw new Error("User canceled the dialog box");
  }

  /** The requests made since `since` (an index into `requests`), as "METHOD /path?query" lines. */
  requestsSince(since: number): string[] {
    return this.requests.slice(since).map((r) => `${r.method} ${new URL(r.url).pathname}${new URL(r.url).search} → ${r.status}`);
  }
}

/** Up to `max` items of one of lokapi's async generators, then closes it (so no further page is fetched). */
export async function collect<T>(gen: AsyncIterable<unknown>, max = 100): Promise<T[]> {
  const out: T[] = [];
  if (max <= 0) return out;
  for await (const item of gen) {
    out.push(item as T);
    if (out.length >= max) break;
  }
  return out;
}

// -------------------------------------------------------------------------------------------
// The parts of lokapi's objects this suite reads. The library types them all as `any`; these
// views only name what Monujo uses, with the types the Cyclos plugin actually produces.
// -------------------------------------------------------------------------------------------

/** `getMyContact()`, and the Odoo partner fields every recipient also has. */
export interface LokContact {
  id: number;
  name: string;
  email: string | false;
  is_favorite: boolean;
}

/** One entry of `getBackends()`: a currency, here our exposed custodial backend. */
export interface LokBackend {
  internalId: string;
  minCreditAmount: unknown;
  maxCreditAmount: unknown;
  userAccounts: Record<string, LokUserAccount>;
  searchRecipients(value: string): AsyncIterable<unknown>;
}

/** A Cyclos "owner": one of our custodial wallets. */
export interface LokUserAccount {
  internalId: string;
  ownerId: string;
  active: boolean;
  /** null when inactive. */
  getAccounts(): Promise<LokAccount[] | null>;
  getSymbol(): Promise<string>;
}

export interface LokAccount {
  internalId: string;
  getBalance(): Promise<string>;
  getSymbol(): Promise<string>;
  /** Typed `string` by the plugin, but it is the parsed answer of POST /cyclos/credit. */
  getCreditUrl(amount: string): Promise<{ order_url: string }>;
  getPendingTopUp(): Promise<LokCreditRequest[]>;
}

export interface LokRecipient extends LokContact {
  backendId: string;
  /** `cyclos:<owner>`, without the host. */
  userAccountInternalId: string;
  jsonData: { odoo: Record<string, unknown>; cyclos: { owner_id: string } };
  toggleFavorite(): Promise<void>;
  prepareTransfer(amount: string, senderMemo: string, recipientMemo?: string): Promise<LokPlannedTransaction[]>;
}

export interface LokPlannedTransaction {
  amount: string;
  description: string;
  related: string;
  execute(): Promise<LokTransaction>;
}

export interface LokTransaction {
  id: string;
  /** A signed string when listed; a negative number in what `execute()` returns. */
  amount: string | number;
  currency: string;
  date: Date;
  description: string;
  /** The counterparty's public name, or "Admin" for the system account (top-ups, reconversions). */
  related: string;
  isTopUp: boolean;
  isReconversion: unknown;
}

/** A pending top-up order. Its `id` getter throws (a plugin bug): use `jsonData.odoo.order_id`. */
export interface LokCreditRequest {
  amount: string;
  date: Date;
  paid: boolean;
  related: string;
  backendId: string;
  requester: { id: number; name: string };
  jsonData: { odoo: { order_id: unknown; order_url: string } };
  cancel(): Promise<void>;
}
