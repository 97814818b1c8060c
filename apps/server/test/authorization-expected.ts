import { ADMIN_ROUTES, walletOf, type RouteName } from "@mutua/domain";

/**
 * The authorisation matrix's answers (authorization.test.ts): for every operation of the
 * contract, the status each kind of caller must get. The kinds of caller are described there.
 */
export const ROLES = ["anonymous", "owner", "other", "accounts", "credits", "both", "board", "cashier", "steward"] as const;
export type Role = (typeof ROLES)[number];

type Expected = Record<Role, number | number[]>;
const same = (status: number): Expected => Object.fromEntries(ROLES.map((r) => [r, status])) as Expected;
/** Any signed-in member gets `status`. */
const member = (status: number): Expected => ({ ...same(status), anonymous: 401 });
/** The owner's things: the owner gets `status`, anybody else a 404 as if they did not exist. */
const owner = (status: number, others = 404): Expected => ({ ...same(others), anonymous: 401, owner: status });
/** Administration: 403 without the right; with it, 404 here since the calls name nothing real. */
function admin(name: RouteName): Expected {
  const right = (Object.entries(ADMIN_ROUTES) as [string, readonly RouteName[]][]).find(([, names]) => names.includes(name))![0];
  const holders: Role[] =
    right === "accounts"
      ? ["accounts", "both"]
      : right === "credits"
        ? ["credits", "both"]
        : right === "board"
          ? ["board", "both"]
          : right === "owner"
            ? ["steward"]
            : right === "accountsOrOwner"
              ? ["accounts", "both", "steward"]
              : ["both"];
  return Object.fromEntries(ROLES.map((r) => [r, r === "anonymous" ? 401 : holders.includes(r) ? [200, 404] : 403])) as Expected;
}

export const EXPECTED: Record<RouteName, Expected> = {
  health: same(200),
  ready: same(200),
  login: same(401),
  logout: member(200),
  canSignup: same(200),
  canResetPassword: same(200),
  signup: same(409),
  resetPassword: same(404),
  resetLink: same(400),
  setNewPassword: same(400),
  confirmEmail: same(400),
  getMyContact: member(200),
  // Each member's own profile; photos are for every signed-in member; the e-mail link needs only its token (profile.test.ts).
  setMyPhone: member(200),
  uploadMyPhoto: member(400),
  removeMyPhoto: member(200),
  getMemberPhoto: member(200),
  requestEmailChange: member(400),
  changePassword: member(400),
  emailChangePage: same(400),
  confirmEmailChange: same(400),
  hasUserAccountValidationRights: member(200),
  hasCreditRequestValidationRights: member(200),
  hasBoardRights: member(200),
  getMyRights: member(200),
  getBackends: member(200),
  getAccounts: member(200),
  getBalance: owner(200),
  getKeystore: owner(200),
  getTransactions: owner(200),
  getAccountSummary: owner(200),
  getTransaction: owner(200),
  getSales: owner(200),
  // Naming and removing cashiers is the owner's; each member lists the tills they run, and answers
  // the invitations to them only (anybody else's is answered as if it did not exist).
  listCashiers: owner(200),
  grantCashier: owner(200),
  revokeCashier: owner(200),
  cancelCashierInvitation: owner(200),
  listTills: member(200),
  listCashierInvitations: member(200),
  acceptCashierInvitation: owner(200),
  declineCashierInvitation: owner(200),
  searchRecipients: member(200),
  setFavorite: member(200),
  unsetFavorite: member(200),
  prepareTransfer: owner(200),
  transfer: owner(200),
  // Asking for money into a wallet is its owner's; reading a request is for whoever holds its id
  // (they scanned it), who pays it with `transfer`; only its owner sees who paid, or cancels it.
  createPaymentRequest: owner(200),
  getPaymentRequest: member(200),
  cancelPaymentRequest: owner(200),
  // Asking members for money is from one's own wallet; an ask is answered by the member asked alone.
  askMoney: owner(200),
  listAsks: member(200),
  declineAsk: owner(200),
  // Each member stops and lets again askers of their own; one who never asked them is refused, unnamed (asks.test.ts).
  // Standing orders: each member lists their own; only the owner sets one up from the owner's
  // wallet and reads or changes the owner's order (anybody else: 404, as if it did not exist).
  listStandingOrders: member(200),
  createStandingOrder: owner(200),
  getStandingOrder: owner(200),
  updateStandingOrder: owner(200),
  pauseStandingOrder: owner(200),
  resumeStandingOrder: owner(200),
  cancelStandingOrder: owner(200),
  listBlockedAskers: member(200),
  blockAsker: owner(200, 400),
  unblockAsker: member(200),
  // The marketplace: any member lists, reads, posts and reports (not their own: 404 as if it did not
  // exist); only its owner changes an offer (anybody else: 404); the account right reads reports and hides.
  listOffers: member(200),
  createOffer: member(200),
  getOffer: member(200),
  updateOffer: owner(200),
  withdrawOffer: owner(200),
  addOfferPhoto: owner(200),
  removeOfferPhoto: owner(200),
  getOfferPhoto: member(200),
  reportOffer: { ...member(200), owner: 404 },
  listReportedOffers: admin("listReportedOffers"),
  hideOffer: admin("hideOffer"),
  // Dues: each member reads their own and pays their own unpaid period (anybody else's: 404; the
  // owner's here is refused for its signature); the owners (steward) set them, list and waive arrears.
  getMyDues: member(200),
  payDues: owner(403),
  getDuesSettings: admin("getDuesSettings"),
  saveDuesSettings: admin("saveDuesSettings"),
  listDuesArrears: admin("listDuesArrears"),
  waiveDues: admin("waiveDues"),
  // Opening a wallet is each member's own business; the owner already has one here.
  createUserAccount: { ...member(200), owner: 409 },
  // The owner re-registering their own file replaces it; another member presenting it is refused.
  registerWallet: { ...member(403), owner: 200 },
  createPin: owner(200),
  // A PIN of somebody else is answered as a PIN that no longer exists, and its counter is untouched.
  openPin: { ...owner(403, 410) },
  deletePin: owner(200),
  // The sessions here never proved the password: adding a credential asks for it (step-up).
  passkeyRegistrationOptions: member(403),
  registerPasskey: member(403),
  deletePasskey: owner(200),
  passkeyLoginOptions: same(200),
  passkeyLogin: same(401),
  createDeviceLogin: member(403),
  deviceLogin: same(401),
  // A wrong proof is refused without ending the session (403, not 401).
  confirmPassword: member(403),
  confirmPasskey: member(403),
  // Each member lists only their own (credentials.test.ts).
  listDevices: member(200),
  // Each member hears and reads only their own events: another's ids are ignored (ownerState checks).
  events: member(200),
  listNotifications: member(200),
  markNotificationsRead: member(200),
  markAllNotificationsRead: member(200),
  // Each member's own settings; the unsubscribe link needs no session, only a signed token (notification-mail.test.ts).
  getNotificationSettings: member(200),
  setNotificationSettings: member(200),
  // Each member's own devices: another's endpoint is ignored, the owner's device stays (ownerState).
  getPushKey: member(200),
  subscribePush: member(200),
  unsubscribePush: member(200),
  unsubscribePage: same(400),
  unsubscribe: same(400),
  // Only the owner (who already has an unpaid one) and credit administrators (the spec's "top-ups by
  // other requesters") open orders on a wallet; for anybody else it does not exist.
  createTopUp: { ...owner(409), credits: 200, both: 200 },
  // Someone who topped the account up sees their own orders (checked below), anybody else nothing.
  getPendingTopUps: { ...owner(200), other: [200, 404], accounts: [200, 404], credits: [200, 404], both: [200, 404], board: [200, 404] },
  cancelTopUp: owner(200),
  ...(Object.fromEntries((Object.values(ADMIN_ROUTES).flat() as RouteName[]).map((n) => [n, admin(n)])) as Record<string, Expected>),
  // The steward's preview and acceptance name no real invitation: refused as such, nothing asked of anybody.
  previewFederationInvitation: { ...admin("previewFederationInvitation"), steward: 400 },
  acceptFederationInvitation: { ...admin("acceptFederationInvitation"), steward: 400 },
  // Who this server is, for other servers: public. Their calls to it: refused to anybody without
  // a linked server's signature, a session of whatever rights being no signature (federation.test.ts signs them).
  federationServer: same(200),
  // The associations this one is linked with, for a payment link's visitor: public, names and addresses only.
  listLinkedAssociations: same(200),
  peerAcceptLink: same(401),
  peerConfirmLink: same(401),
  peerLinkTerms: same(401),
  peerRoutes: same(401),
  peerQuote: same(401),
  peerPay: same(401),
  peerQuotes: same(401),
  peerPayments: same(401),
  peerPaymentState: same(401),
  peerPaymentEnded: same(401),
  peerKeyRotated: same(401),
  peerLinkEnded: same(401),
  peerAddressChanged: same(401),
  peerSettlementProposed: same(401),
  peerSettlementWithdrawn: same(401),
  peerSettlementAccepted: same(401),
  peerSettlementDeclined: same(401),
  quoteCrossPayment: member(404),
  payAcross: member(404),
  // The directory is public; paying a business needs a session; each member's profile is their own
  // (businesses.test.ts: a member never listed appears nowhere).
  getDirectory: same(200),
  getBusiness: same(200),
  getBusinessPhoto: same(200),
  getDirectoryGeoJson: same(200),
  getDirectoryCsv: same(200),
  getBusinessPayee: member(200),
  getMyBusiness: member(200),
  saveMyBusiness: member(200),
  uploadMyBusinessPhoto: member(400),
  removeMyBusiness: member(200),
} as Record<RouteName, Expected>;

// The cashier is any other member, except on the owner's wallets: the till's operations answer it
// as they answer the owner; every other operation naming those wallets answers 403 (the route
// table's `wallet` and `till`), whatever it answers anybody else. It cancels a request of its own.
for (const name of Object.keys(EXPECTED) as RouteName[]) {
  const wallet = walletOf(name);
  EXPECTED[name] = { ...EXPECTED[name], cashier: wallet ? (wallet.till ? EXPECTED[name].owner : 403) : EXPECTED[name].other };
}
EXPECTED.cancelPaymentRequest.cashier = 200;
// The steward's save names an old version, and its logo is not an image: refused, nothing changed.
EXPECTED.saveAssociationSettings.steward = 409;
EXPECTED.uploadAssociationLogo.steward = 400;
