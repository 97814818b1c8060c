/**
 * Method, path and access of every API operation: the one route table, in two halves (the
 * members' here, the administrators' in admin-routes.ts; access.ts joins them). Plain data (no zod) so
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
 * answered as if it did not exist (404), except a cashier of that wallet, who is told
 * 403 unless `till` says the operation is the till's (take payments, see the sales).
 */
import type { adminRoutes } from "./admin-routes";
import type { askBlockRoutes } from "./ask-block-routes";
import type { standingOrderRoutes } from "./standing-order-routes";
import type { directoryRoutes } from "./directory-routes";
import type { duesRoutes } from "./dues-routes";
import type { federationRoutes } from "./federation-routes";
import type { marketRoutes } from "./market-routes";
import type { RouteSpec } from "./route-spec";

export type { Access, HttpMethodName, Right, RouteSpec, WalletAt } from "./route-spec";

/** The operations of members and visitors: what the app's every page may call. */
export const memberRoutes = {
  health: { method: "GET", path: "/api/health", access: "public" },
  ready: { method: "GET", path: "/api/ready", access: "public" },
  login: { method: "POST", path: "/api/auth/login", access: "public" },
  logout: { method: "POST", path: "/api/auth/logout", access: "member" },
  canSignup: { method: "GET", path: "/api/auth/can-signup", access: "public" },
  canResetPassword: { method: "GET", path: "/api/auth/can-reset-password", access: "public" },
  signup: { method: "POST", path: "/api/auth/signup", access: "public" },
  resetPassword: { method: "POST", path: "/api/auth/reset-password", access: "public" },
  /** Whether a mailed link to choose a password still works (?token=, as in the link itself), asked when its page opens. */
  resetLink: { method: "GET", path: "/api/auth/reset-password", access: "public" },
  setNewPassword: { method: "POST", path: "/api/auth/new-password", access: "public" },
  confirmEmail: { method: "POST", path: "/api/auth/confirm-email", access: "public" },
  getMyContact: { method: "GET", path: "/api/me", access: "member" },
  // The member's own profile: phone, photo, e-mail address (confirmed by a link to the new one), password.
  /** Sets the member's phone number, or clears it (null). */
  setMyPhone: { method: "PUT", path: "/api/me/phone", access: "member" },
  /** The member's photo, base64: a JPEG, WebP or PNG of at most 64 KB (the app sends a 256×256 square). */
  uploadMyPhoto: { method: "PUT", path: "/api/me/photo", access: "member", bodyLimit: 128 * 1024 },
  removeMyPhoto: { method: "DELETE", path: "/api/me/photo", access: "member" },
  /** Any member's photo, for any signed-in member (shown beside names); `v` in the URL the API gives makes it cacheable for long. */
  getMemberPhoto: { method: "GET", path: "/api/members/:memberId/photo", access: "member" },
  /** With the current password: e-mails the new address a link; the address changes once it is opened and confirmed. */
  requestEmailChange: { method: "POST", path: "/api/me/email", access: "member" },
  /** With the current password: the new one; every other session of the member ends, this one stays. */
  changePassword: { method: "POST", path: "/api/me/password", access: "member" },
  // The link of the e-mail confirming a new address (a token, no session): GET shows the page and
  // changes nothing (mail scanners open links), POST is its button. HTML answers, like unsubscribing.
  emailChangePage: { method: "GET", path: "/api/email-change", access: "public" },
  confirmEmailChange: { method: "POST", path: "/api/email-change", access: "public" },
  hasUserAccountValidationRights: { method: "GET", path: "/api/me/rights/account-validation", access: "member" },
  hasCreditRequestValidationRights: { method: "GET", path: "/api/me/rights/credit-validation", access: "member" },
  /** The board's read-only right: figures and ledger health (administrators hold it too). */
  hasBoardRights: { method: "GET", path: "/api/me/rights/board", access: "member" },
  /** Every right the member holds, in one answer: what the app asks at sign-in (the three above are the spec's). */
  getMyRights: { method: "GET", path: "/api/me/rights", access: "member" },
  getBackends: { method: "GET", path: "/api/backends", access: "member" },
  /** The member's wallets, their balances and sub-accounts (spec "buildVirtualAccountTree"). */
  getAccounts: { method: "GET", path: "/api/accounts", access: "member" },
  /** The latest balance of one wallet, read now (spec "getBalance('latest')"). */
  getBalance: { method: "GET", path: "/api/accounts/:walletId/balance", access: "member", wallet: "params.walletId" },
  /** The encrypted wallet file of one of the member's ledger wallets. */
  getKeystore: { method: "GET", path: "/api/accounts/:walletId/keystore", access: "member", wallet: "params.walletId" },
  getTransactions: { method: "GET", path: "/api/accounts/:walletId/transactions", access: "member", wallet: "params.walletId" },
  /**
   * This month's money in and out and the balance at the end of each of the last `days` days
   * (default 30), computed by the server from the ledger, in the time zone `tz` (an IANA name).
   */
  getAccountSummary: { method: "GET", path: "/api/accounts/:walletId/summary", access: "member", wallet: "params.walletId" },
  /** One transaction as the wallet sees it, for its receipt (a notification links to it). */
  getTransaction: { method: "GET", path: "/api/accounts/:walletId/transactions/:transactionId", access: "member", wallet: "params.walletId" },
  // The till's sales: the wallet's owner, and the cashiers they let run its till; the
  // cashiers themselves are the owner's to name (invite) and remove; a member lists the tills they run.
  /** A till's sales between two instants (`from` included, `to` not), with their count and total over the whole range. */
  getSales: { method: "GET", path: "/api/accounts/:walletId/sales", access: "member", wallet: "params.walletId", till: true },
  /** Who may run one of the member's wallets' till, and the invitations still pending or declined. */
  listCashiers: { method: "GET", path: "/api/accounts/:walletId/cashiers", access: "member", wallet: "params.walletId" },
  /** Invites the holder of `email` to run the till: the same answer whoever holds the address. */
  grantCashier: { method: "POST", path: "/api/accounts/:walletId/cashiers", access: "member", wallet: "params.walletId" },
  revokeCashier: { method: "DELETE", path: "/api/accounts/:walletId/cashiers/:memberId", access: "member", wallet: "params.walletId" },
  /** The owner withdraws an invitation to run the till (pending or declined). */
  cancelCashierInvitation: {
    method: "DELETE",
    path: "/api/accounts/:walletId/cashier-invitations/:invitationId",
    access: "member",
    wallet: "params.walletId",
  },
  /** The tills the member runs as a cashier, for their owners. */
  listTills: { method: "GET", path: "/api/me/tills", access: "member" },
  // Naming a cashier invites them: the invitee (the member holding the address) accepts or declines.
  /** The invitations to run somebody's till the member has to answer, and their answers. */
  listCashierInvitations: { method: "GET", path: "/api/me/cashier-invitations", access: "member" },
  acceptCashierInvitation: { method: "POST", path: "/api/me/cashier-invitations/:invitationId/accept", access: "member" },
  declineCashierInvitation: { method: "POST", path: "/api/me/cashier-invitations/:invitationId/decline", access: "member" },
  searchRecipients: { method: "GET", path: "/api/recipients", access: "member" },
  setFavorite: { method: "PUT", path: "/api/favorites/:memberId", access: "member" },
  unsetFavorite: { method: "DELETE", path: "/api/favorites/:memberId", access: "member" },
  prepareTransfer: { method: "POST", path: "/api/transfers/prepare", access: "member", wallet: "body.from" },
  /** Sends a payment; retrying with the same `key` never pays twice and answers the original result. */
  transfer: { method: "POST", path: "/api/transfers", access: "member", wallet: "body.from" },
  // Payment requests: anyone signed in who has the id (they scanned it) reads and pays
  // one; only the payee wallet's till (its owner, its cashiers) creates and cancels it, and sees who paid.
  /** Asks for an exact amount into one of one's wallets; paid by a `transfer` whose body names its `requestId`. */
  createPaymentRequest: { method: "POST", path: "/api/payment-requests", access: "member", wallet: "body.walletId", till: true },
  /** A request by its id (scanned): what to pay, and its status; its payee also sees who paid. */
  getPaymentRequest: { method: "GET", path: "/api/payment-requests/:requestId", access: "member" },
  /** The payee withdraws an unpaid request; a paid one stays paid. */
  cancelPaymentRequest: { method: "POST", path: "/api/payment-requests/:requestId/cancel", access: "member" },
  // Asking members for money: a payment request made of each, which only they may pay or decline;
  // the asker withdraws one with cancelPaymentRequest.
  /** Asks one or several members (a bill split) for money into one of the asker's own wallets. */
  askMoney: { method: "POST", path: "/api/asks", access: "member", wallet: "body.walletId" },
  /** The asks the member has to answer, and their own latest ones with who paid. */
  listAsks: { method: "GET", path: "/api/asks", access: "member" },
  /** The asked member says no: the asker is told; `?stop=asker` also stops them from asking again. */
  declineAsk: { method: "POST", path: "/api/asks/:requestId/decline", access: "member" },
  // Stopping a member from asking: askBlockRoutes (ask-block-routes.ts), loaded with the screens that use them.
  // The directory of businesses and its map: directoryRoutes (directory-routes.ts), likewise.
  // Dues: duesRoutes (dues-routes.ts), likewise.
  /**
   * Opens a wallet on a backend; it waits for an administrator's approval (spec "createUserAccount").
   * A ledger wallet brings its keystore and the device's proof of its key (see walletRegistrationMessage).
   */
  createUserAccount: { method: "POST", path: "/api/wallets", access: "member" },
  /** Imports a wallet file the device opened and signed for (see walletRegistrationMessage). */
  registerWallet: { method: "POST", path: "/api/wallets/register", access: "member" },
  createPin: { method: "POST", path: "/api/pins", access: "member", wallet: "body.walletId" },
  openPin: { method: "POST", path: "/api/pins/:pinId/open", access: "member" },
  deletePin: { method: "DELETE", path: "/api/pins/:pinId", access: "member" },
  passkeyRegistrationOptions: { method: "POST", path: "/api/passkeys/options", access: "member" },
  registerPasskey: { method: "POST", path: "/api/passkeys", access: "member" },
  deletePasskey: { method: "DELETE", path: "/api/passkeys/:credentialId", access: "member" },
  /** With this device's credential id in the body, only that passkey is offered. */
  passkeyLoginOptions: { method: "POST", path: "/api/auth/passkey/options", access: "public" },
  passkeyLogin: { method: "POST", path: "/api/auth/passkey", access: "public" },
  /** A native shell's biometric credential for the signed-in member (its secret goes to the Keychain). */
  createDeviceLogin: { method: "POST", path: "/api/device-logins", access: "member" },
  deviceLogin: { method: "POST", path: "/api/auth/device", access: "public" },
  /** Step-up: proves the password again so the session may add a passkey or device login. */
  confirmPassword: { method: "POST", path: "/api/auth/confirm", access: "member" },
  /** Step-up with one of the member's passkeys (options from passkeyLoginOptions). */
  confirmPasskey: { method: "POST", path: "/api/auth/confirm/passkey", access: "member" },
  /** The member's passkeys and device logins; each is removed with deletePasskey. */
  listDevices: { method: "GET", path: "/api/me/devices", access: "member" },
  /** Spec "getCreditUrl": a top-up order on one of the member's wallets; pay it at `order_url`. */
  createTopUp: { method: "POST", path: "/api/topups", access: "member", wallet: "body.walletId" },
  /** The wallet's unpaid and paid top-up orders. */
  getPendingTopUps: { method: "GET", path: "/api/topups", access: "member", wallet: "query.walletId" },
  /** Spec "transaction.cancel": deletes one's own unpaid top-up request. */
  cancelTopUp: { method: "POST", path: "/api/topups/cancel", access: "member" },
  events: { method: "GET", path: "/api/events", access: "member" },
  listNotifications: { method: "GET", path: "/api/notifications", access: "member" },
  markNotificationsRead: { method: "POST", path: "/api/notifications/read", access: "member" },
  markAllNotificationsRead: { method: "POST", path: "/api/notifications/read-all", access: "member" },
  /** Which notifications the member gets by e-mail, and the language the server writes in. */
  getNotificationSettings: { method: "GET", path: "/api/me/notifications", access: "member" },
  /** Changes what the body names (a kind on or off, the language), leaves the rest. */
  setNotificationSettings: { method: "PUT", path: "/api/me/notifications", access: "member" },
  /** The server's VAPID public key, for PushManager.subscribe. */
  getPushKey: { method: "GET", path: "/api/push/key", access: "member" },
  /** This device's push subscription (PushSubscription.toJSON()): its notifications come to it. */
  subscribePush: { method: "POST", path: "/api/push/subscriptions", access: "member" },
  /** This device wants no more notifications. */
  unsubscribePush: { method: "POST", path: "/api/push/subscriptions/remove", access: "member" },
  // The link of a notification e-mail (signed token, no session): GET shows the page and changes
  // nothing (mail scanners open links), POST is its button and RFC 8058's one-click. HTML answers.
  unsubscribePage: { method: "GET", path: "/api/unsubscribe", access: "public" },
  unsubscribe: { method: "POST", path: "/api/unsubscribe", access: "public" },
} as const satisfies Record<string, RouteSpec>;

/** Every operation's route, as a type (the value is access.ts's `routes`). */
type AllRoutes = typeof memberRoutes &
  typeof askBlockRoutes &
  typeof marketRoutes &
  typeof directoryRoutes &
  typeof duesRoutes &
  typeof standingOrderRoutes &
  typeof adminRoutes &
  typeof federationRoutes;

export type RouteName = keyof AllRoutes;
export type MemberRouteName = keyof typeof memberRoutes;
export type AdminRouteName = keyof typeof adminRoutes;
export type FederationRouteName = keyof typeof federationRoutes;
export type MarketRouteName = keyof typeof marketRoutes;
export type HttpMethod = AllRoutes[RouteName]["method"];

/** The names of a path's `:parameters`, as a union of string literals. */
type ParamNames<P extends string> = P extends `${string}:${infer N}/${infer Rest}` ? N | ParamNames<`/${Rest}`> : P extends `${string}:${infer N}` ? N : never;

/**
 * Path parameters of an operation, read from its path: `undefined` for a path without any. For a
 * union of operations, the union of theirs (any one operation's parameters fit).
 */
export type PathParams<K extends RouteName> = K extends RouteName
  ? [ParamNames<AllRoutes[K]["path"]>] extends [never]
    ? undefined
    : Record<ParamNames<AllRoutes[K]["path"]>, string | number>
  : never;

/** Operations whose path has no parameters. */
export type PlainRouteName = { [K in RouteName]: PathParams<K> extends undefined ? K : never }[RouteName];

/** buildPath's arguments after the name: the parameters exactly when the path has some. */
export type PathArgs<K extends RouteName> = PathParams<K> extends undefined ? [params?: undefined] : [params: PathParams<K>];

/** A route's path with its parameters filled in (buildPath, for a caller that holds the route itself). */
export function fillPath(path: string, params: Record<string, string | number> | undefined, name: string = path): string {
  const values = params ?? {};
  return path.replace(/:(\w+)/g, (_, key: string) => {
    const v = values[key];
    if (v === undefined) throw new Error(`${name}: path parameter ${key} missing`);
    return encodeURIComponent(String(v));
  });
}
