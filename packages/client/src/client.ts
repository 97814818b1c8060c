import {
  fillPath,
  memberRoutes,
  normalizeEmail,
  type MemberRouteName,
  type PathParams,
  type RouteName,
  type BodyOf,
  type QueryOf,
  type ResponseOf,
  type ErrorBody,
  type TransactionsQuery,
} from "@mutua/domain";
import { followEvents, type EventHandlers, type EventSourceConstructor } from "./events";
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

/** A call's arguments; `params` is required exactly when the operation's path has parameters. */
export type Args<K extends RouteName> = {
  body?: BodyOf<K>;
  query?: QueryOf<K>;
  idempotencyKey?: string;
} & (PathParams<K> extends undefined ? { params?: undefined } : { params: PathParams<K> });

const GATEWAY_DOWN = new Set([502, 503, 504]);

/** The typed client of the Mutua API: one method per operation of the shared contract. */
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
  call<K extends MemberRouteName>(name: K, args: Args<K> = {} as Args<K>): Promise<ResponseOf<K>> {
    return this.send(name, memberRoutes[name], args);
  }

  /** Sends one call of an operation whose route the caller holds. */
  async send<K extends RouteName>(name: K, route: { method: string; path: string }, args: Args<K> = {} as Args<K>): Promise<ResponseOf<K>> {
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

  login(login: string, password: string) {
    return this.call("login", { body: { login: normalizeEmail(login), password } });
  }
  logout() {
    return this.call("logout");
  }
  async canSignup(): Promise<boolean> {
    return (await this.call("canSignup")).allowed;
  }
  async canResetPassword(): Promise<boolean> {
    return (await this.call("canResetPassword")).allowed;
  }
  signup(v: { email: string; firstName: string; lastName: string; password: string }) {
    return this.call("signup", {
      body: { email: normalizeEmail(v.email), firstName: v.firstName.trim(), lastName: v.lastName.trim(), password: v.password },
    });
  }
  resetPassword(email: string) {
    return this.call("resetPassword", { body: { email: normalizeEmail(email) } });
  }
  setNewPassword(token: string, password: string) {
    return this.call("setNewPassword", { body: { token, password } });
  }
  getMyContact() {
    return this.call("getMyContact");
  }
  async hasUserAccountValidationRights(): Promise<boolean> {
    return (await this.call("hasUserAccountValidationRights")).allowed;
  }
  async hasCreditRequestValidationRights(): Promise<boolean> {
    return (await this.call("hasCreditRequestValidationRights")).allowed;
  }
  /** The board's read-only right: figures and ledger health (administrators hold it too). */
  async hasBoardRights(): Promise<boolean> {
    return (await this.call("hasBoardRights")).allowed;
  }
  getBackends() {
    return this.call("getBackends");
  }
  /** The member's wallets, their balances and sub-accounts (spec "buildVirtualAccountTree"). */
  getAccounts() {
    return this.call("getAccounts");
  }
  /** The latest balance of one wallet, read now (spec "getBalance('latest')"). */
  getBalance(walletId: string) {
    return this.call("getBalance", { params: { walletId } });
  }
  /** The encrypted wallet file of one of the member's ledger wallets. */
  getKeystore(walletId: string) {
    return this.call("getKeystore", { params: { walletId } });
  }
  getTransactions(walletId: string, query: TransactionsQuery = {}) {
    return this.call("getTransactions", { params: { walletId }, query });
  }
  /** One transaction as the wallet sees it, for its receipt (a notification links to it). */
  getTransaction(walletId: string, transactionId: string) {
    return this.call("getTransaction", { params: { walletId, transactionId } });
  }
  /**
   * This month's money in and out and the balance at the end of each of the last `days` days
   * (default 30), computed by the server from the ledger, in the time zone `tz` (an IANA name).
   */
  getAccountSummary(walletId: string, query: QueryOf<"getAccountSummary">) {
    return this.call("getAccountSummary", { params: { walletId }, query });
  }
  /** A till's sales between two instants (`from` included, `to` not), with their count and total over the whole range. */
  getSales(walletId: string, query: QueryOf<"getSales">) {
    return this.call("getSales", { params: { walletId }, query });
  }
  searchRecipients(query: QueryOf<"searchRecipients">) {
    return this.call("searchRecipients", { query });
  }
  async setFavorite(memberId: number, favorite: boolean): Promise<boolean> {
    const r = await this.call(favorite ? "setFavorite" : "unsetFavorite", { params: { memberId } });
    return r.isFavorite;
  }
  prepareTransfer(body: BodyOf<"prepareTransfer">) {
    return this.call("prepareTransfer", { body });
  }
  /** Sends a payment; retrying with the same `key` never pays twice and answers the original result. */
  transfer(body: BodyOf<"transfer">) {
    return this.call("transfer", { body });
  }
  /** Asks for an exact amount into one of one's wallets; pay it with `transfer({ ..., requestId })`. */
  createPaymentRequest(body: BodyOf<"createPaymentRequest">) {
    return this.call("createPaymentRequest", { body });
  }
  /** A request by its id (scanned): what to pay, and its status; its payee also sees who paid. */
  getPaymentRequest(requestId: string) {
    return this.call("getPaymentRequest", { params: { requestId } });
  }
  /** The payee withdraws an unpaid request; a paid one stays paid. */
  cancelPaymentRequest(requestId: string) {
    return this.call("cancelPaymentRequest", { params: { requestId } });
  }
  /** Spec "getCreditUrl": a top-up order on a wallet (one's own or another member's); pay it at order_url. */
  /**
   * Opens a wallet on a backend; it waits for an administrator's approval (spec "createUserAccount").
   * A ledger wallet brings its keystore and the device's proof of its key (see walletRegistrationMessage).
   */
  createUserAccount(backendId: string, ledger?: { keystore: Record<string, unknown>; at: string; signature: string }) {
    return this.call("createUserAccount", { body: { backendId, ...ledger } });
  }
  /** Imports a wallet file the device opened and signed for (see walletRegistrationMessage). */
  registerWallet(body: BodyOf<"registerWallet">) {
    return this.call("registerWallet", { body });
  }
  createPin(walletId: string, verifier: string) {
    return this.call("createPin", { body: { walletId, verifier } });
  }
  openPin(pinId: string, proof: string) {
    return this.call("openPin", { params: { pinId }, body: { proof } });
  }
  deletePin(pinId: string) {
    return this.call("deletePin", { params: { pinId } });
  }
  passkeyRegistrationOptions() {
    return this.call("passkeyRegistrationOptions");
  }
  registerPasskey(challengeId: string, response: Record<string, unknown>) {
    return this.call("registerPasskey", { body: { challengeId, response } });
  }
  deletePasskey(credentialId: string) {
    return this.call("deletePasskey", { params: { credentialId } });
  }
  /** With this device's credential id, only that passkey is offered. */
  passkeyLoginOptions(credentialId?: string) {
    return this.call("passkeyLoginOptions", { body: { credentialId } });
  }
  passkeyLogin(challengeId: string, response: Record<string, unknown>) {
    return this.call("passkeyLogin", { body: { challengeId, response } });
  }
  /** A native shell's biometric credential for the signed-in member (its secret goes to the Keychain). */
  createDeviceLogin() {
    return this.call("createDeviceLogin");
  }
  deviceLogin(credentialId: string, secret: string) {
    return this.call("deviceLogin", { body: { credentialId, secret } });
  }
  /** Step-up: proves the password again so the session may add a passkey or device login. */
  confirmPassword(password: string) {
    return this.call("confirmPassword", { body: { password } });
  }
  /** Step-up with one of the member's passkeys (options from passkeyLoginOptions). */
  confirmPasskey(challengeId: string, response: Record<string, unknown>) {
    return this.call("confirmPasskey", { body: { challengeId, response } });
  }
  /** The member's passkeys and device logins; each is removed with deletePasskey. */
  listDevices() {
    return this.call("listDevices");
  }
  createTopUp(walletId: string, amount: string) {
    return this.call("createTopUp", { body: { walletId, amount } });
  }
  /** The wallet's unpaid and paid top-up orders. */
  getPendingTopUps(walletId: string) {
    return this.call("getPendingTopUps", { query: { walletId } });
  }
  /** Spec "transaction.cancel": deletes one's own unpaid top-up request. */
  cancelTopUp(id: string) {
    return this.call("cancelTopUp", { body: { id } });
  }
  /** Follows the member's events as they happen (events.ts); returns the function that stops. */
  subscribe(handlers: EventHandlers): () => void {
    return followEvents(this.baseUrl, handlers, { EventSource: this.options.EventSource, fetch: this.fetchImpl, token: this.options.getToken?.() });
  }
  listNotifications(query: QueryOf<"listNotifications"> = {}) {
    return this.call("listNotifications", { query });
  }
  markNotificationsRead(ids: string[]) {
    return this.call("markNotificationsRead", { body: { ids } });
  }
  markAllNotificationsRead() {
    return this.call("markAllNotificationsRead");
  }

  /** Which notifications the member gets by e-mail, and the language the server writes in. */
  getNotificationSettings() {
    return this.call("getNotificationSettings");
  }

  /** Changes what `change` names (a kind on or off, the language), leaves the rest. */
  setNotificationSettings(change: BodyOf<"setNotificationSettings">) {
    return this.call("setNotificationSettings", { body: change });
  }

  /** The server's VAPID public key, for PushManager.subscribe. */
  getPushKey() {
    return this.call("getPushKey");
  }
  /** This device's push subscription (PushSubscription.toJSON()): its notifications come to it. */
  subscribePush(subscription: BodyOf<"subscribePush">) {
    return this.call("subscribePush", { body: subscription });
  }
  /** This device wants no more notifications. */
  unsubscribePush(endpoint: string) {
    return this.call("unsubscribePush", { body: { endpoint } });
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
