/**
 * Method, path and access of every API operation: the one route table. Plain data (no zod) so
 * the web bundle can import it; `schemas.ts` holds the matching request/response schemas, keyed
 * the same way. Everything else about a route (which ones are public, which right an
 * administrative one needs, how its path is filled in) is derived from here.
 *
 * Access: `public` answers without a session; `member` needs one; `accounts` and `credits` need
 * the account or credit validation right as well (docs/spec.md §6); `both` is the spec's
 * "administrator", a holder of both rights; `board` reads the association's figures and the
 * ledger's health and changes nothing: board members have it, and so do administrators.
 *
 * `wallet` says where an operation names the wallet it acts on. Its owner may; anybody else is
 * answered as if it did not exist (404), except a cashier of that wallet (issue 20), who is told
 * 403 unless `till` says the operation is the till's (take payments, see the sales).
 */
export const routes = {
  health: { method: "GET", path: "/api/health", access: "public" },
  ready: { method: "GET", path: "/api/ready", access: "public" },
  login: { method: "POST", path: "/api/auth/login", access: "public" },
  logout: { method: "POST", path: "/api/auth/logout", access: "member" },
  canSignup: { method: "GET", path: "/api/auth/can-signup", access: "public" },
  canResetPassword: { method: "GET", path: "/api/auth/can-reset-password", access: "public" },
  signup: { method: "POST", path: "/api/auth/signup", access: "public" },
  resetPassword: { method: "POST", path: "/api/auth/reset-password", access: "public" },
  setNewPassword: { method: "POST", path: "/api/auth/new-password", access: "public" },
  getMyContact: { method: "GET", path: "/api/me", access: "member" },
  hasUserAccountValidationRights: { method: "GET", path: "/api/me/rights/account-validation", access: "member" },
  hasCreditRequestValidationRights: { method: "GET", path: "/api/me/rights/credit-validation", access: "member" },
  hasBoardRights: { method: "GET", path: "/api/me/rights/board", access: "member" },
  getBackends: { method: "GET", path: "/api/backends", access: "member" },
  getAccounts: { method: "GET", path: "/api/accounts", access: "member" },
  getBalance: { method: "GET", path: "/api/accounts/:walletId/balance", access: "member", wallet: "params.walletId" },
  getKeystore: { method: "GET", path: "/api/accounts/:walletId/keystore", access: "member", wallet: "params.walletId" },
  getTransactions: { method: "GET", path: "/api/accounts/:walletId/transactions", access: "member", wallet: "params.walletId" },
  getAccountSummary: { method: "GET", path: "/api/accounts/:walletId/summary", access: "member", wallet: "params.walletId" },
  getTransaction: { method: "GET", path: "/api/accounts/:walletId/transactions/:transactionId", access: "member", wallet: "params.walletId" },
  // The till's sales (issue 20): the wallet's owner, and the cashiers they let run its till; the
  // cashiers themselves are the owner's to name and remove; a member lists the tills they run.
  getSales: { method: "GET", path: "/api/accounts/:walletId/sales", access: "member", wallet: "params.walletId", till: true },
  listCashiers: { method: "GET", path: "/api/accounts/:walletId/cashiers", access: "member", wallet: "params.walletId" },
  grantCashier: { method: "POST", path: "/api/accounts/:walletId/cashiers", access: "member", wallet: "params.walletId" },
  revokeCashier: { method: "DELETE", path: "/api/accounts/:walletId/cashiers/:memberId", access: "member", wallet: "params.walletId" },
  listTills: { method: "GET", path: "/api/me/tills", access: "member" },
  searchRecipients: { method: "GET", path: "/api/recipients", access: "member" },
  setFavorite: { method: "PUT", path: "/api/favorites/:memberId", access: "member" },
  unsetFavorite: { method: "DELETE", path: "/api/favorites/:memberId", access: "member" },
  prepareTransfer: { method: "POST", path: "/api/transfers/prepare", access: "member", wallet: "body.from" },
  transfer: { method: "POST", path: "/api/transfers", access: "member", wallet: "body.from" },
  // Payment requests (issue 20): anyone signed in who has the id (they scanned it) reads and pays
  // one; only the payee wallet's till (its owner, its cashiers) creates and cancels it, and sees who paid.
  createPaymentRequest: { method: "POST", path: "/api/payment-requests", access: "member", wallet: "body.walletId", till: true },
  getPaymentRequest: { method: "GET", path: "/api/payment-requests/:requestId", access: "member" },
  cancelPaymentRequest: { method: "POST", path: "/api/payment-requests/:requestId/cancel", access: "member" },
  createUserAccount: { method: "POST", path: "/api/wallets", access: "member" },
  registerWallet: { method: "POST", path: "/api/wallets/register", access: "member" },
  createPin: { method: "POST", path: "/api/pins", access: "member", wallet: "body.walletId" },
  openPin: { method: "POST", path: "/api/pins/:pinId/open", access: "member" },
  deletePin: { method: "DELETE", path: "/api/pins/:pinId", access: "member" },
  passkeyRegistrationOptions: { method: "POST", path: "/api/passkeys/options", access: "member" },
  registerPasskey: { method: "POST", path: "/api/passkeys", access: "member" },
  deletePasskey: { method: "DELETE", path: "/api/passkeys/:credentialId", access: "member" },
  passkeyLoginOptions: { method: "POST", path: "/api/auth/passkey/options", access: "public" },
  passkeyLogin: { method: "POST", path: "/api/auth/passkey", access: "public" },
  createDeviceLogin: { method: "POST", path: "/api/device-logins", access: "member" },
  deviceLogin: { method: "POST", path: "/api/auth/device", access: "public" },
  confirmPassword: { method: "POST", path: "/api/auth/confirm", access: "member" },
  confirmPasskey: { method: "POST", path: "/api/auth/confirm/passkey", access: "member" },
  listDevices: { method: "GET", path: "/api/me/devices", access: "member" },
  createTopUp: { method: "POST", path: "/api/topups", access: "member", wallet: "body.walletId" },
  getPendingTopUps: { method: "GET", path: "/api/topups", access: "member", wallet: "query.walletId" },
  cancelTopUp: { method: "POST", path: "/api/topups/cancel", access: "member" },
  events: { method: "GET", path: "/api/events", access: "member" },
  listNotifications: { method: "GET", path: "/api/notifications", access: "member" },
  markNotificationsRead: { method: "POST", path: "/api/notifications/read", access: "member" },
  markAllNotificationsRead: { method: "POST", path: "/api/notifications/read-all", access: "member" },
  getNotificationSettings: { method: "GET", path: "/api/me/notifications", access: "member" },
  setNotificationSettings: { method: "PUT", path: "/api/me/notifications", access: "member" },
  getPushKey: { method: "GET", path: "/api/push/key", access: "member" },
  subscribePush: { method: "POST", path: "/api/push/subscriptions", access: "member" },
  unsubscribePush: { method: "POST", path: "/api/push/subscriptions/remove", access: "member" },
  // The link of a notification e-mail (signed token, no session): GET shows the page and changes
  // nothing (mail scanners open links), POST is its button and RFC 8058's one-click. HTML answers.
  unsubscribePage: { method: "GET", path: "/api/unsubscribe", access: "public" },
  unsubscribe: { method: "POST", path: "/api/unsubscribe", access: "public" },
  getCreditRequests: { method: "GET", path: "/api/admin/credit-requests", access: "credits" },
  validateCredit: { method: "POST", path: "/api/admin/credit-requests/validate", access: "credits" },
  markTopUpPaid: { method: "POST", path: "/api/admin/credit-requests/mark-paid", access: "credits" },
  listUnpaidTopUps: { method: "GET", path: "/api/admin/unpaid-topups", access: "credits" },
  listAuditLog: { method: "GET", path: "/api/admin/audit", access: "both" },
  listMemberWallets: { method: "GET", path: "/api/admin/wallets", access: "both" },
  setWalletLimits: { method: "POST", path: "/api/admin/wallets/limits", access: "both" },
  // The members' pages (issue 22): the account administrators find a member and help them.
  searchMembers: { method: "GET", path: "/api/admin/members", access: "accounts" },
  getMemberFile: { method: "GET", path: "/api/admin/members/:memberId", access: "accounts" },
  signOutMember: { method: "POST", path: "/api/admin/members/:memberId/sign-out", access: "accounts" },
  resetMemberPins: { method: "POST", path: "/api/admin/members/:memberId/pin-attempts/reset", access: "accounts" },
  sendMemberPasswordReset: { method: "POST", path: "/api/admin/members/:memberId/password-reset", access: "accounts" },
  freezeWallet: { method: "POST", path: "/api/admin/wallets/freeze", access: "accounts" },
  unfreezeWallet: { method: "POST", path: "/api/admin/wallets/unfreeze", access: "accounts" },
  listReconversions: { method: "GET", path: "/api/admin/reconversions", access: "both" },
  // The board's figures and the ledger's health (issue 22): read-only, for the board and the administrators.
  getFigures: { method: "GET", path: "/api/admin/figures", access: "board" },
  getBooks: { method: "GET", path: "/api/admin/books", access: "board" },
  getLedgerHealth: { method: "GET", path: "/api/admin/ledger-health", access: "board" },
  checkLedger: { method: "POST", path: "/api/admin/ledger-health/check", access: "board" },
  advanceReconversion: { method: "POST", path: "/api/admin/reconversions/advance", access: "both" },
  getStagingUserAccounts: { method: "GET", path: "/api/admin/pending-accounts", access: "accounts" },
  validateCreation: { method: "POST", path: "/api/admin/pending-accounts/validate", access: "accounts" },
  discardCreateRequest: { method: "POST", path: "/api/admin/pending-accounts/discard", access: "accounts" },
} as const satisfies Record<string, { method: HttpMethodName; path: `/api/${string}`; access: Access; wallet?: WalletAt; till?: true }>;

type HttpMethodName = "GET" | "POST" | "PUT" | "DELETE";
/** Where a request names the wallet its operation acts on. */
export type WalletAt = "params.walletId" | "body.walletId" | "query.walletId" | "body.from";
/** The validation rights of docs/spec.md §6 (`both` asks for the two at once), and the board's read-only right. */
export type Right = "accounts" | "credits" | "both" | "board";
export type Access = "public" | "member" | Right;

export type RouteName = keyof typeof routes;
export type HttpMethod = (typeof routes)[RouteName]["method"];

const NAMES = Object.keys(routes) as RouteName[];

/** Routes that answer without a session. Everything else needs one. */
export const PUBLIC_ROUTES: ReadonlySet<RouteName> = new Set(NAMES.filter((n) => routes[n].access === "public"));

/** Operations of each validation right (docs/spec.md §6); every other member gets 403. */
export const ADMIN_ROUTES: Readonly<Record<Right, readonly RouteName[]>> = {
  accounts: NAMES.filter((n) => routes[n].access === "accounts"),
  credits: NAMES.filter((n) => routes[n].access === "credits"),
  both: NAMES.filter((n) => routes[n].access === "both"),
  board: NAMES.filter((n) => routes[n].access === "board"),
};

/** Where an operation names its wallet, and whether a cashier of that wallet may call it (the route table's `wallet` and `till`). */
export function walletOf(name: RouteName): { at: WalletAt; till: boolean } | undefined {
  const r = routes[name] as { access: Access; wallet?: WalletAt; till?: true };
  return r.wallet ? { at: r.wallet, till: r.till === true } : undefined;
}

/** The validation right an operation needs, if any. */
export function rightOf(name: RouteName): Right | undefined {
  const access: Access = routes[name].access;
  return access === "public" || access === "member" ? undefined : access;
}

/** The names of a path's `:parameters`, as a union of string literals. */
type ParamNames<P extends string> = P extends `${string}:${infer N}/${infer Rest}` ? N | ParamNames<`/${Rest}`> : P extends `${string}:${infer N}` ? N : never;

/**
 * Path parameters of an operation, read from its path: `undefined` for a path without any. For a
 * union of operations, the union of theirs (any one operation's parameters fit).
 */
export type PathParams<K extends RouteName> = K extends RouteName
  ? [ParamNames<(typeof routes)[K]["path"]>] extends [never]
    ? undefined
    : Record<ParamNames<(typeof routes)[K]["path"]>, string | number>
  : never;

/** Operations whose path has no parameters. */
export type PlainRouteName = { [K in RouteName]: PathParams<K> extends undefined ? K : never }[RouteName];

/** buildPath's arguments after the name: the parameters exactly when the path has some. */
export type PathArgs<K extends RouteName> = PathParams<K> extends undefined ? [params?: undefined] : [params: PathParams<K>];

/** The names of an operation's path parameters, in path order. */
export function pathParamNames(name: RouteName): string[] {
  return [...routes[name].path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
}

/** Every path parameter of an operation set to one value (tests that only need some path). */
export function pathWithAll(name: RouteName, value: string): string {
  return buildPath(name, Object.fromEntries(pathParamNames(name).map((k) => [k, value])) as PathParams<RouteName>);
}

/**
 * The path of one call of an operation, its parameters filled in and encoded. Used by the
 * client and by the tests, so a path is never spelled twice. A missing parameter throws: a path
 * with a literal `:walletId` in it would reach some other route's 404, not a clear failure.
 */
export function buildPath<K extends RouteName>(name: K, ...[params]: PathArgs<K>): string {
  const values = (params ?? {}) as Record<string, string | number>;
  return routes[name].path.replace(/:(\w+)/g, (_, key: string) => {
    const v = values[key];
    if (v === undefined) throw new Error(`${name}: path parameter ${key} missing`);
    return encodeURIComponent(String(v));
  });
}
