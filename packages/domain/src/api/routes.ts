/**
 * Method and path of every API operation. Plain data (no zod) so the web bundle can import
 * it; `schemas.ts` holds the matching request/response schemas, keyed the same way.
 */
export const routes = {
  health: { method: "GET", path: "/api/health" },
  ready: { method: "GET", path: "/api/ready" },
  login: { method: "POST", path: "/api/auth/login" },
  logout: { method: "POST", path: "/api/auth/logout" },
  canSignup: { method: "GET", path: "/api/auth/can-signup" },
  canResetPassword: { method: "GET", path: "/api/auth/can-reset-password" },
  signup: { method: "POST", path: "/api/auth/signup" },
  resetPassword: { method: "POST", path: "/api/auth/reset-password" },
  setNewPassword: { method: "POST", path: "/api/auth/new-password" },
  getMyContact: { method: "GET", path: "/api/me" },
  hasUserAccountValidationRights: { method: "GET", path: "/api/me/rights/account-validation" },
  hasCreditRequestValidationRights: { method: "GET", path: "/api/me/rights/credit-validation" },
  getBackends: { method: "GET", path: "/api/backends" },
  getAccounts: { method: "GET", path: "/api/accounts" },
  getBalance: { method: "GET", path: "/api/accounts/:walletId/balance" },
  getKeystore: { method: "GET", path: "/api/accounts/:walletId/keystore" },
  getTransactions: { method: "GET", path: "/api/accounts/:walletId/transactions" },
  searchRecipients: { method: "GET", path: "/api/recipients" },
  setFavorite: { method: "PUT", path: "/api/favorites/:memberId" },
  unsetFavorite: { method: "DELETE", path: "/api/favorites/:memberId" },
  prepareTransfer: { method: "POST", path: "/api/transfers/prepare" },
  transfer: { method: "POST", path: "/api/transfers" },
  createUserAccount: { method: "POST", path: "/api/wallets" },
  registerWallet: { method: "POST", path: "/api/wallets/register" },
  createPin: { method: "POST", path: "/api/pins" },
  openPin: { method: "POST", path: "/api/pins/:pinId/open" },
  deletePin: { method: "DELETE", path: "/api/pins/:pinId" },
  passkeyRegistrationOptions: { method: "POST", path: "/api/passkeys/options" },
  registerPasskey: { method: "POST", path: "/api/passkeys" },
  deletePasskey: { method: "DELETE", path: "/api/passkeys/:credentialId" },
  passkeyLoginOptions: { method: "POST", path: "/api/auth/passkey/options" },
  passkeyLogin: { method: "POST", path: "/api/auth/passkey" },
  createDeviceLogin: { method: "POST", path: "/api/device-logins" },
  deviceLogin: { method: "POST", path: "/api/auth/device" },
  confirmPassword: { method: "POST", path: "/api/auth/confirm" },
  confirmPasskey: { method: "POST", path: "/api/auth/confirm/passkey" },
  listDevices: { method: "GET", path: "/api/me/devices" },
  createTopUp: { method: "POST", path: "/api/topups" },
  getPendingTopUps: { method: "GET", path: "/api/topups" },
  cancelTopUp: { method: "POST", path: "/api/topups/cancel" },
  getCreditRequests: { method: "GET", path: "/api/admin/credit-requests" },
  validateCredit: { method: "POST", path: "/api/admin/credit-requests/validate" },
  markTopUpPaid: { method: "POST", path: "/api/admin/credit-requests/mark-paid" },
  listUnpaidTopUps: { method: "GET", path: "/api/admin/unpaid-topups" },
  listAuditLog: { method: "GET", path: "/api/admin/audit" },
  listMemberWallets: { method: "GET", path: "/api/admin/wallets" },
  setWalletLimits: { method: "POST", path: "/api/admin/wallets/limits" },
  listReconversions: { method: "GET", path: "/api/admin/reconversions" },
  advanceReconversion: { method: "POST", path: "/api/admin/reconversions/advance" },
  getStagingUserAccounts: { method: "GET", path: "/api/admin/pending-accounts" },
  validateCreation: { method: "POST", path: "/api/admin/pending-accounts/validate" },
  discardCreateRequest: { method: "POST", path: "/api/admin/pending-accounts/discard" },
} as const;

export type RouteName = keyof typeof routes;

/** Operations of the validation rights (docs/spec.md §6); every other member gets 403. */
export const ADMIN_ROUTES = {
  accounts: ["getStagingUserAccounts", "validateCreation", "discardCreateRequest"],
  credits: ["getCreditRequests", "validateCredit", "markTopUpPaid", "listUnpaidTopUps"],
  /** The spec's "administrator": holders of both rights. */
  both: ["listReconversions", "advanceReconversion", "listAuditLog", "listMemberWallets", "setWalletLimits"],
} as const satisfies Record<string, readonly RouteName[]>;
export type HttpMethod = (typeof routes)[RouteName]["method"];

/** Routes that answer without a session. Everything else needs one. */
export const PUBLIC_ROUTES: ReadonlySet<RouteName> = new Set<RouteName>([
  "health",
  "ready",
  "login",
  "canSignup",
  "canResetPassword",
  "signup",
  "resetPassword",
  "setNewPassword",
  "passkeyLoginOptions",
  "passkeyLogin",
  "deviceLogin",
]);
