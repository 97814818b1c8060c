import { createECDH, randomBytes, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_ROUTES, routes, walletRegistrationMessage, type RouteName } from "@mutua/domain";
import { newPinProof, pinProof, signMessage } from "@mutua/wallet";
import { ledgerViolations } from "../src/services/ledger/ledger";
import { openCustodialWallet, type BackendRow } from "../src/services/wallets/wallets";
import {
  Api,
  createBackend,
  memberToken,
  newKey,
  openTestLedgerWallet,
  seedMember,
  TEST_PASSWORD,
  signTransfer,
  TINY_PNG,
  topUp,
  walletBalances,
  type SeededMember,
  type TestLedgerWallet,
} from "./helpers";
import { EXPECTED, ROLES, type Role } from "./authorization-expected";
import { ownerState } from "./authorization-owner-state";
import { setupServerTest } from "./setup";
import { LINK_TERMS, peerCalls } from "./authorization-peer-calls";

/**
 * The authorisation matrix: every operation of the contract × every kind of caller, with the
 * status each must get. "owner" holds the wallets, order, PIN and device login the calls name;
 * everybody else calling on them must learn and move nothing (IDOR), which is checked on the
 * database after they all tried, before the owner's own calls run. "cashier" runs the till of
 * both of the owner's wallets, having accepted the owner's invitations: it takes
 * payments into them and sees their sales, and every other operation on them answers it 403.
 * "other" was invited too and never answered, "board" declined: neither has any right for it.
 * "board" holds the board's read-only right: the figures and the ledger's health,
 * which administrators ("both") read too. "steward" holds the association owner's right
 * (managing members' rights), and no other.
 */
type Args = Parameters<Api["call"]>[1];

const t = setupServerTest();
let custodial: BackendRow;
let ledger: BackendRow;
const people = {} as Record<Exclude<Role, "anonymous">, SeededMember>;
const apis = {} as Record<Role, Api>;
let payee: SeededMember;
let payeeWallet: string;
let payeeLedger: string;
/** The owner's things. */
const own = {} as {
  custodial: string;
  ledger: TestLedgerWallet;
  order: string;
  pinId: string;
  proofSalt: string;
  device: string;
  pendingWallet: string;
  event: string;
  /** A movement of the owner's custodial wallet (its top-up). */
  tx: string;
  /** The push endpoint of the owner's device. */
  pushEndpoint: string;
  /** An open payment request into the owner's custodial wallet. */
  request: string;
  /** One the cashier asked at the owner's till: the cashier's to cancel. */
  cashierRequest: string;
  /** An invitation of the owner's to run their till, to an address nobody holds: the owner's to cancel. */
  invitation: string;
  /** Invitations to the owner to run the payee's tills: the owner's to accept, and to decline. */
  toAccept: string;
  toDecline: string;
  /** The payee asks the owner for money: the owner's to pay or decline. */
  askOfOwner: string;
  /** The owner's offer in the marketplace, with two photos: one to read, one to remove. */
  offer: string;
  /** The owner's unpaid dues of their ledger wallet: theirs only to pay (with their device's signature). */
  dues: string;
  offerPhoto: number;
  offerPhotoToRemove: number;
  /** The owner's business, listed (with its logo): anybody reads it, signed-in members pay it. */
  business: string;
  /** The owner's standing order from their custodial wallet to the payee's, its first day a month ahead. */
  standingOrder: string;
  standingOrderStart: string;
};

/** A device's push subscription on a default push service, with keys a browser would make. */
const pushSubscription = (endpoint: string) => {
  const ecdh = createECDH("prime256v1");
  return { endpoint, keys: { p256dh: ecdh.generateKeys().toString("base64url"), auth: randomBytes(16).toString("base64url") } };
};

beforeAll(async () => {
  custodial = await createBackend(t.db, { kind: "custodial", symbol: "DL" });
  ledger = await createBackend(t.db, { kind: "ledger", cmFloor: "-10.00", symbol: "DL" });
  apis.anonymous = new Api(t.server.baseUrl);
  for (const role of ["owner", "other", "accounts", "credits", "both", "board", "cashier", "steward"] as const) {
    people[role] = await seedMember(t.db, {
      firstName: role,
      canValidateAccounts: role === "accounts" || role === "both",
      canValidateCredits: role === "credits" || role === "both",
      canViewFigures: role === "board",
      canManageAssociation: role === "steward",
    });
    apis[role] = new Api(t.server.baseUrl, await memberToken(t.db, people[role].id));
  }
  payee = await seedMember(t.db, { firstName: "Payee" });
  payeeWallet = await openCustodialWallet(t.db, custodial, payee.id, "active");
  payeeLedger = (await openTestLedgerWallet(t.db, ledger, payee.id)).id;
  // The payee's photo, which any signed-in member may see.
  await t.db.query("INSERT INTO member_photos (member_id, type, bytes) VALUES ($1, 'image/png', $2)", [payee.id, TINY_PNG]);

  own.custodial = await openCustodialWallet(t.db, custodial, people.owner.id, "active");
  await topUp(t.db, own.custodial, "100.00");
  own.ledger = await openTestLedgerWallet(t.db, ledger, people.owner.id);
  await topUp(t.db, own.ledger.id, "100.00");
  const order = await apis.owner.call("createTopUp", { body: { walletId: own.custodial, amount: "10.00" } });
  own.order = order.json.id;
  const { proofSalt, verifier } = await newPinProof("2468");
  own.proofSalt = proofSalt;
  own.pinId = (await apis.owner.call("createPin", { body: { walletId: own.ledger.id, verifier } })).json.pinId;
  // Adding a device login needs a session that proved the password (apis.owner's did not).
  own.device = (await new Api(t.server.baseUrl, await memberToken(t.db, people.owner.id, { fresh: true })).call("createDeviceLogin")).json.credentialId;
  const newcomer = await seedMember(t.db, { firstName: "Newcomer" });
  own.pendingWallet = await openCustodialWallet(t.db, custodial, newcomer.id, "pending");
  own.tx = (await t.db.query<{ public_id: string }>("SELECT public_id FROM movements WHERE payee_wallet_id = $1 LIMIT 1", [own.custodial])).rows[0]!.public_id;
  // The owner gets e-mails for money received: a forged unsubscribe link must not stop them.
  await t.db.query("INSERT INTO notification_preferences (member_id, channel, kind) VALUES ($1, 'email', 'payment_received')", [people.owner.id]);
  // The owner's phone is subscribed to pushes: nobody else may remove it.
  own.pushEndpoint = `https://fcm.googleapis.com/fcm/send/owner-${randomUUID()}`;
  expect((await apis.owner.call("subscribePush", { body: pushSubscription(own.pushEndpoint) })).status).toBe(200);
  own.request = (await apis.owner.call("createPaymentRequest", { body: { walletId: own.custodial, amount: "3.00" } })).json.id;
  // The cashier accepts the owner's invitations; "other" leaves them pending and "board" declines
  // them: a cashier's rights come with acceptance only.
  for (const wallet of [own.custodial, own.ledger.id]) {
    for (const role of ["cashier", "other", "board"] as const)
      expect((await apis.owner.call("grantCashier", { params: { walletId: wallet }, body: { email: people[role].email } })).status).toBe(200);
  }
  for (const [role, answer] of [
    ["cashier", "acceptCashierInvitation"],
    ["board", "declineCashierInvitation"],
  ] as const) {
    const invitations = (await apis[role].call("listCashierInvitations")).json as { id: string }[];
    expect(invitations).toHaveLength(2);
    for (const i of invitations) expect((await apis[role].call(answer, { params: { invitationId: i.id } })).status).toBe(200);
  }
  const invited = await apis.owner.call("grantCashier", { params: { walletId: own.custodial }, body: { email: `nobody-${randomUUID()}@example.org` } });
  own.invitation = invited.json.invitationId!;
  const payeeApi = new Api(t.server.baseUrl, await memberToken(t.db, payee.id));
  for (const wallet of [payeeWallet, payeeLedger])
    expect((await payeeApi.call("grantCashier", { params: { walletId: wallet }, body: { email: people.owner.email } })).status).toBe(200);
  [own.toAccept, own.toDecline] = ((await apis.owner.call("listCashierInvitations")).json as { id: string }[]).map((i) => i.id) as [string, string];
  own.askOfOwner = (
    await payeeApi.call("askMoney", { body: { walletId: payeeWallet, parts: [{ memberId: Number(people.owner.id), amount: "2.00" }] } })
  ).json.parts[0]!.requestId;
  const offer = (await apis.owner.call("createOffer", { body: offerBody() })).json;
  own.offer = offer.id;
  for (let i = 0; i < 2; i++) await apis.owner.call("addOfferPhoto", { params: { offerId: own.offer }, body: { data: TINY_PNG.toString("base64") } });
  [own.offerPhoto, own.offerPhotoToRemove] = (await apis.owner.call("getOffer", { params: { offerId: own.offer } })).json.photos.map((p) => p.id) as [
    number,
    number,
  ];
  own.cashierRequest = (await apis.cashier.call("createPaymentRequest", { body: { walletId: own.custodial, amount: "4.00" } })).json.id;
  own.business = "bz_owners-business-1";
  await t.db.query(
    `INSERT INTO businesses (public_id, member_id, status, name, accepts, photo_type, photo, photo_updated_at)
     VALUES ($1, $2, 'approved', 'The owner''s shop', ARRAY[$3], 'image/png', $4, now())`,
    [own.business, people.owner.id, custodial.id, TINY_PNG],
  );
  own.dues = "du_" + "a".repeat(24);
  await t.db.query(
    `INSERT INTO dues_runs (public_id, member_id, period, wallet_id, amount, memo, status) VALUES ($1, $2, '2026-01-01', $3, 200, 'Dues · January 2026', 'arrears')`,
    [own.dues, people.owner.id, own.ledger.id],
  );
  own.standingOrderStart = (await t.db.query<{ d: string }>("SELECT ((now() AT TIME ZONE 'Europe/Paris')::date + 30)::text AS d")).rows[0]!.d;
  own.standingOrder = (await apis.owner.call("createStandingOrder", { body: standingOrderBody() })).json.id;
  // The top-ups told the owner: a notification of theirs that nobody else may read or mark.
  own.event = String((await t.db.query<{ id: bigint }>("SELECT max(id) AS id FROM member_events WHERE member_id = $1", [people.owner.id])).rows[0]!.id);
});

/** A monthly order from the owner's custodial wallet to the payee, confirmed with the owner's password. */
const standingOrderBody = () => ({
  from: own.custodial,
  to: payeeWallet,
  amount: "2.00",
  frequency: "monthly",
  startDate: own.standingOrderStart,
  password: TEST_PASSWORD,
});

/** An offer of the owner's, paid into their custodial wallet. */
const offerBody = () => ({
  kind: "offer" as const,
  category: "food" as const,
  title: "Organic eggs",
  description: "A dozen",
  price: "4.00",
  walletId: own.custodial,
  expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
});
/** An offer id nobody holds. */
const NO_OFFER = `of_${"A".repeat(22)}`;
const isAccountAdmin = (role: Role) => role === "accounts" || role === "both";

/** Each caller's own members that a call may name when it is not about the owner's things. */
const members = () => ({ payee: Number(payee.id) });

/** The owner, for a caller without the right to members' pages; a member who does not exist for one with it. */
const memberOrNobody = (role: Role) => (role === "accounts" || role === "both" || role === "steward" ? 999_999_999 : Number(people.owner.id));

const custodialPayment = (key = newKey("authz")) => ({ from: own.custodial, to: payeeWallet, parts: [{ account: "main", amount: "1.00" }], key });

/** The call each role makes for an operation (most name the owner's things whoever calls). */
const ARGS: Record<RouteName, (role: Role) => Args> = {
  health: () => ({}),
  ready: () => ({}),
  login: () => ({ body: { login: people.owner.email, password: "not the password" } }),
  logout: () => ({}),
  canSignup: () => ({}),
  canResetPassword: () => ({}),
  // A taken address per caller, so the per-account sign-up limit does not answer first.
  signup: (role) => ({ body: { email: (role === "anonymous" ? payee : people[role]).email, firstName: "A", lastName: "B", password: "Longer-Pass-1" } }),
  resetPassword: () => ({ body: { email: `nobody-${randomUUID()}@example.org` } }),
  resetLink: () => ({ query: { token: "not-a-token" } }),
  setNewPassword: () => ({ body: { token: "not-a-token", password: "Longer-Pass-1" } }),
  confirmEmail: () => ({ body: { token: "not-a-token" } }),
  getMyContact: () => ({}),
  // The profile: each caller changes their own. The photo is no image and the e-mail no address, and
  // the new password is too short: refused before the current password counts as a login attempt.
  setMyPhone: () => ({ body: { phone: "+33 6 12 34 56 78" } }),
  uploadMyPhoto: () => ({ body: { data: Buffer.from("not an image").toString("base64") } }),
  removeMyPhoto: () => ({}),
  // Any member sees any member's photo (the payee's, beside their name).
  getMemberPhoto: () => ({ params: { memberId: Number(payee.id) } }),
  requestEmailChange: () => ({ body: { email: "not an address", password: "not the password" } }),
  changePassword: () => ({ body: { currentPassword: "not the password", newPassword: "short" } }),
  // A link's token that names nothing: nobody, signed in or not, changes anybody's address with it.
  emailChangePage: () => ({ query: { token: "not-a-token" } }),
  confirmEmailChange: () => ({ query: { token: "not-a-token" } }),
  hasUserAccountValidationRights: () => ({}),
  hasCreditRequestValidationRights: () => ({}),
  hasBoardRights: () => ({}),
  getMyRights: () => ({}),
  getBackends: () => ({}),
  getAccounts: () => ({}),
  getBalance: () => ({ params: { walletId: own.custodial } }),
  getKeystore: () => ({ params: { walletId: own.ledger.id } }),
  getTransactions: () => ({ params: { walletId: own.custodial } }),
  getAccountSummary: () => ({ params: { walletId: own.custodial }, query: { tz: "Europe/Paris" } }),
  getTransaction: () => ({ params: { walletId: own.custodial, transactionId: own.tx } }),
  getSales: () => ({ params: { walletId: own.custodial }, query: { from: new Date(Date.now() - 86_400_000).toISOString(), to: new Date().toISOString() } }),
  listCashiers: () => ({ params: { walletId: own.custodial } }),
  // The owner names the payee, then removes them: anybody else's call must do neither.
  grantCashier: () => ({ params: { walletId: own.custodial }, body: { email: payee.email } }),
  revokeCashier: () => ({ params: { walletId: own.custodial, memberId: Number(payee.id) } }),
  cancelCashierInvitation: () => ({ params: { walletId: own.custodial, invitationId: own.invitation } }),
  listTills: () => ({}),
  listCashierInvitations: () => ({}),
  acceptCashierInvitation: () => ({ params: { invitationId: own.toAccept } }),
  declineCashierInvitation: () => ({ params: { invitationId: own.toDecline } }),
  searchRecipients: () => ({ query: { q: "" } }),
  setFavorite: () => ({ params: { memberId: members().payee } }),
  unsetFavorite: () => ({ params: { memberId: members().payee } }),
  prepareTransfer: () => ({ body: { from: own.custodial, to: payeeWallet, amount: "1.00" } }),
  transfer: () => ({ body: custodialPayment() }),
  createPaymentRequest: () => ({ body: { walletId: own.custodial, amount: "2.00" } }),
  getPaymentRequest: () => ({ params: { requestId: own.request } }),
  cancelPaymentRequest: (role) => ({ params: { requestId: role === "cashier" ? own.cashierRequest : own.request } }),
  askMoney: () => ({ body: { walletId: own.custodial, parts: [{ memberId: members().payee, amount: "1.00" }] } }),
  listAsks: () => ({}),
  declineAsk: () => ({ params: { requestId: own.askOfOwner } }),
  // Everybody tries to set up an order from the owner's wallet, and to read and change the owner's order.
  listStandingOrders: () => ({}),
  // From the owner's signed wallet, which needs no password: typed here by every caller from one
  // address, it would meet the sign-in limits first (the password's check is standing-orders.test.ts's).
  createStandingOrder: () => ({ body: { ...standingOrderBody(), from: own.ledger.id, to: payeeLedger, password: undefined } }),
  getStandingOrder: () => ({ params: { orderId: own.standingOrder } }),
  updateStandingOrder: () => ({ params: { orderId: own.standingOrder }, body: { amount: "3.00" } }),
  pauseStandingOrder: () => ({ params: { orderId: own.standingOrder } }),
  resumeStandingOrder: () => ({ params: { orderId: own.standingOrder } }),
  cancelStandingOrder: () => ({ params: { orderId: own.standingOrder } }),
  listBlockedAskers: () => ({}),
  // The payee asked the owner: the owner may stop them; nobody else was asked by them.
  blockAsker: () => ({ params: { memberId: members().payee } }),
  unblockAsker: () => ({ params: { memberId: members().payee } }),
  listOffers: () => ({ query: { q: "eggs" } }),
  // Each caller posts a need of their own (no account needed).
  createOffer: () => ({ body: { ...offerBody(), kind: "need", price: null, walletId: null } }),
  getOffer: () => ({ params: { offerId: own.offer } }),
  // Only the owner edits, withdraws and changes the photos of the owner's offer (ownerState shows it untouched).
  updateOffer: () => ({ params: { offerId: own.offer }, body: { ...offerBody(), title: "Taken over" } }),
  withdrawOffer: () => ({ params: { offerId: own.offer } }),
  addOfferPhoto: () => ({ params: { offerId: own.offer }, body: { data: TINY_PNG.toString("base64") } }),
  removeOfferPhoto: () => ({ params: { offerId: own.offer, photoId: own.offerPhotoToRemove } }),
  getOfferPhoto: () => ({ params: { offerId: own.offer, photoId: own.offerPhoto } }),
  reportOffer: () => ({ params: { offerId: own.offer }, body: { reason: "Looks wrong" } }),
  listReportedOffers: () => ({}),
  // The account administrators hide an offer nobody holds; anybody else tries the owner's.
  hideOffer: (role) => ({ params: { offerId: isAccountAdmin(role) ? NO_OFFER : own.offer }, body: { reason: "Abusive" } }),
  createUserAccount: () => ({ body: { backendId: custodial.id } }),
  registerWallet: () => {
    const at = new Date().toISOString();
    // Signed with the owner's key for the owner: replayed by anyone else, it must not attach the wallet to them.
    const message = walletRegistrationMessage({
      backendId: ledger.id,
      address: own.ledger.address.replace(/^0x/, "").toLowerCase(),
      memberId: Number(people.owner.id),
      at,
    });
    return { body: { backendId: ledger.id, keystore: own.ledger.keystore, at, signature: signMessage(own.ledger.key, message) } };
  },
  createPin: () => ({ body: { walletId: own.ledger.id, verifier: "ab".repeat(32) } }),
  openPin: () => ({ params: { pinId: own.pinId }, body: { proof: "cd".repeat(32) } }),
  deletePin: () => ({ params: { pinId: own.pinId } }),
  passkeyRegistrationOptions: () => ({}),
  registerPasskey: () => ({ body: { challengeId: randomUUID(), response: { id: "x" } } }),
  deletePasskey: () => ({ params: { credentialId: own.device } }),
  passkeyLoginOptions: () => ({ body: {} }),
  passkeyLogin: () => ({ body: { challengeId: randomUUID(), response: { id: "x" } } }),
  createDeviceLogin: () => ({}),
  deviceLogin: () => ({ body: { credentialId: own.device, secret: "A".repeat(43) } }),
  confirmPassword: () => ({ body: { password: "not the password" } }),
  confirmPasskey: () => ({ body: { challengeId: randomUUID(), response: { id: "x" } } }),
  listDevices: () => ({}),
  events: () => ({}),
  listNotifications: () => ({}),
  markNotificationsRead: () => ({ body: { ids: [own.event] } }),
  markAllNotificationsRead: () => ({}),
  getNotificationSettings: () => ({}),
  // Each caller switches their own on: the owner's stay as they are (ownerState).
  setNotificationSettings: () => ({ body: { language: "fr-FR", email: { payment_received: true, wallet_approved: false } } }),
  // A token of the owner's, its signature forged: nobody, signed in or not, may use it.
  getPushKey: () => ({}),
  // Each caller subscribes a device of their own (an endpoint is the browser's: see web-push.test.ts for one changing hands).
  subscribePush: (role) => ({ body: pushSubscription(`https://fcm.googleapis.com/fcm/send/${role}-${randomUUID()}`) }),
  // The owner's device: removed for the owner only, left as it is for anybody else (ownerState).
  unsubscribePush: () => ({ body: { endpoint: own.pushEndpoint } }),
  unsubscribePage: () => ({ query: { token: `${people.owner.id}.payment_received.${"A".repeat(43)}` } }),
  unsubscribe: () => ({ query: { token: `${people.owner.id}.payment_received.${"A".repeat(43)}` } }),
  createTopUp: () => ({ body: { walletId: own.custodial, amount: "5.00" } }),
  getPendingTopUps: () => ({ query: { walletId: own.custodial } }),
  cancelTopUp: () => ({ body: { id: own.order } }),
  getCreditRequests: () => ({}),
  validateCredit: () => ({ body: { id: "to_nope" } }),
  markTopUpPaid: () => ({ body: { id: "to_nope" } }),
  listUnpaidTopUps: () => ({}),
  listAuditLog: () => ({}),
  listMemberWallets: () => ({}),
  setWalletLimits: () => ({ body: { walletId: "custodial:nope", topupAllowed: false } }),
  // Whoever lacks the right tries it on the owner (ownerState shows the sessions, PINs and all untouched);
  // the holders name nobody, so the owner's own session and PIN stay for the owner's calls.
  searchMembers: () => ({ query: { q: "owner" } }),
  getMemberFile: (role) => ({ params: { memberId: memberOrNobody(role) } }),
  signOutMember: (role) => ({ params: { memberId: memberOrNobody(role) } }),
  resetMemberPins: (role) => ({ params: { memberId: memberOrNobody(role) } }),
  sendMemberPasswordReset: (role) => ({ params: { memberId: memberOrNobody(role) } }),
  // With the caller's own password: the steward's call names a member who does not exist.
  setMemberRights: (role) => ({
    params: { memberId: role === "steward" ? 999_999_999 : Number(people.owner.id) },
    body: { rights: { accounts: true, credits: true, board: true, owner: true }, password: TEST_PASSWORD },
  }),
  // The association's settings: the steward's save names a version long gone (409: nothing
  // saved), its logo is no PNG (400); whoever lacks the right is refused before either is read.
  getAssociationSettings: () => ({}),
  saveAssociationSettings: () => ({
    body: {
      identity: {
        name: "Taken over",
        theme: { primaryColor: "#000000", topBarColor: null, topBarTextColor: null },
        helpUrl: null,
        cguUrl: null,
        mapUrl: null,
        allowSignup: false,
        allowResetPassword: false,
      },
      money: { currencyName: "Gone", currencySymbol: "G", backends: [], topUps: false, reconversions: false, bank: { iban: "", bic: "", holder: "" } },
      basedOn: "2000-01-01T00:00:00.000Z",
    },
  }),
  getFloorImpact: () => ({ query: { backendId: "ledger:nope", floor: "-10.00" } }),
  uploadAssociationLogo: () => ({ body: { type: "image/png", data: Buffer.from("not a png").toString("base64") } }),
  removeAssociationLogo: () => ({}),
  // An upload of nobody's: the owners' import reads only their own, and none is imported here.
  uploadImportFile: () => ({
    body: { uploadId: null, kind: "members", name: "members.csv", index: 0, data: Buffer.from("external_id,email\n").toString("base64") },
  }),
  previewImport: () => ({ body: { members: `up_${"0".repeat(32)}` } }),
  runImport: () => ({ body: { members: `up_${"0".repeat(32)}` } }),
  getInvitations: () => ({}),
  sendInvitations: () => ({}),
  // Whoever lacks the right tries it on the owner's real wallet (ownerState shows it untouched).
  freezeWallet: (role) => ({ body: { walletId: role === "accounts" || role === "both" ? "custodial:nope" : own.custodial, reason: "Checked" } }),
  unfreezeWallet: (role) => ({ body: { walletId: role === "accounts" || role === "both" ? "custodial:nope" : own.custodial } }),
  listReconversions: () => ({}),
  getFigures: () => ({ query: { from: "2026-01-01", to: "2026-12-31", interval: "month", tz: "Europe/Paris" } }),
  // The books list every movement, the owner's too: only the board's right reads them.
  getBooks: () => ({ query: { from: "2026-01-01", to: "2026-12-31", tz: "Europe/Paris" } }),
  getLedgerHealth: () => ({}),
  checkLedger: () => ({}),
  advanceReconversion: () => ({ body: { id: "tx_nope", status: "received" } }),
  getStagingUserAccounts: () => ({}),
  validateCreation: () => ({ body: { walletId: "custodial:nope" } }),
  discardCreateRequest: () => ({ body: { walletId: "custodial:nope" } }),
  // Links with other associations: the steward's preview and acceptance name no real invitation (400), its
  // confirmation and terms no link (404); the servers' own calls carry no signature here (401 for all).
  listFederationLinks: () => ({}),
  createFederationInvitation: () => ({}),
  previewFederationInvitation: () => ({ body: { code: "MUTUA-LINK:not-a-code" } }),
  acceptFederationInvitation: () => ({ body: { code: "MUTUA-LINK:not-a-code", terms: LINK_TERMS } }),
  confirmFederationLink: () => ({ params: { linkId: "fl_nothing_here_at_all" }, body: { terms: LINK_TERMS } }),
  setFederationLinkTerms: () => ({ params: { linkId: "fl_nothing_here_at_all" }, body: { terms: LINK_TERMS } }),
  setFederationLinkForwarding: () => ({ params: { linkId: "fl_nothing_here_at_all" }, body: { forward: true } }),
  withdrawFederationInvitation: () => ({ params: { linkId: "fl_nothing_here_at_all" } }),
  endFederationPayment: () => ({ params: { linkId: "fl_nothing_here_at_all", paymentId: "fp_0123456789abcdefghij" } }),
  // The steward's new key is made (200; no link to tell); a peer key replaced on no link (404).
  getFederationKeys: () => ({}),
  rotateFederationKey: () => ({ body: { revoke: false } }),
  replaceFederationPeerKey: () => ({ params: { linkId: "fl_nothing_here_at_all" }, body: { fingerprint: "0123456789abcdef0123456789abcdef" } }),
  endFederationLink: () => ({ params: { linkId: "fl_nothing_here_at_all" } }),
  // A settlement of a link that does not exist (404 for the steward), and the servers' messages of one unsigned (401 for all).
  proposeFederationSettlement: () => ({ params: { linkId: "fl_nothing_here_at_all" }, body: { amount: "1.00", currency: "ours", note: "" } }),
  acceptFederationSettlement: () => ({ params: { linkId: "fl_nothing_here_at_all", settlementId: "fs_0123456789abcdefghij" } }),
  declineFederationSettlement: () => ({ params: { linkId: "fl_nothing_here_at_all", settlementId: "fs_0123456789abcdefghij" } }),
  withdrawFederationSettlement: () => ({ params: { linkId: "fl_nothing_here_at_all", settlementId: "fs_0123456789abcdefghij" } }),
  federationServer: () => ({}),
  listLinkedAssociations: () => ({}),
  // A quote names a server this one has no link with: no member learns anything, nothing is asked of anybody.
  quoteCrossPayment: () => ({ body: { server: "https://nowhere.example", walletId: "custodial:nope", amount: "1.00" } }),
  // A payment across from no wallet of anybody's, to a server this one has no link with: nothing is held or asked.
  payAcross: () => ({
    body: {
      from: "custodial:nope",
      server: "https://nowhere.example",
      walletId: "custodial:nope",
      amount: "1.00",
      payerAmount: "1.00",
      key: "cross-payment-1",
    },
  }),
  ...peerCalls(() => payeeWallet),
  // The directory: anybody reads the owner's listed business; each caller asks for, changes and
  // withdraws a profile of their own (the owner's stays as it was: ownerState); administrators
  // decide on a profile that does not exist; the steward saves the directory's settings.
  getDirectory: () => ({ query: { q: "shop" } }),
  getBusiness: () => ({ params: { businessId: own.business } }),
  getBusinessPhoto: () => ({ params: { businessId: own.business } }),
  getDirectoryGeoJson: () => ({}),
  getDirectoryCsv: () => ({}),
  getBusinessPayee: () => ({ params: { businessId: own.business } }),
  getMyBusiness: () => ({}),
  saveMyBusiness: (role) => ({
    body: {
      name: `Shop of ${role}`,
      categoryId: null,
      description: "",
      address: "",
      hours: { weekly: [{ day: 0, open: "09:00", close: "18:00" }], exceptions: [] },
      phone: "",
      website: "",
      location: { lat: 45.9, lon: 6.12 },
      accepts: [],
      till: false,
    },
  }),
  uploadMyBusinessPhoto: () => ({ body: { data: Buffer.from("not an image").toString("base64") } }),
  removeMyBusiness: () => ({}),
  listBusinessRequests: () => ({}),
  approveBusiness: () => ({ params: { businessId: "bz_nothing-here-at-all" } }),
  discardBusiness: () => ({ params: { businessId: "bz_nothing-here-at-all" } }),
  getDirectorySettings: () => ({}),
  saveDirectorySettings: () => ({
    body: {
      categories: [{ id: null, en: "Bakery", fr: "Boulangerie" }],
      tileUrl: null,
      tileAttribution: null,
      geocoderUrl: null,
      timeZone: "Europe/Paris",
      embedOrigins: [],
    },
  }),
  getBusinessFigures: () => ({}),
  getMyDues: () => ({}),
  // Signed by no key: only the owner gets as far as the signature.
  payDues: () => ({ params: { duesId: own.dues }, body: { parts: [{ account: "nant", amount: "2.00" }], at: new Date().toISOString(), signature: "0x00" } }),
  getDuesSettings: () => ({}),
  saveDuesSettings: () => ({
    body: { mode: "fixed", period: "monthly", firstDate: "2099-01-01", memberAmount: "2.00", businessAmount: null, rate: null },
  }),
  listDuesArrears: () => ({}),
  waiveDues: () => ({ params: { duesId: "du_" + "0".repeat(24) } }),
};

async function call(role: Role, name: RouteName) {
  // Logging out ends the session: each caller does it with a session of its own.
  const api = name === "logout" && role !== "anonymous" ? new Api(t.server.baseUrl, await memberToken(t.db, people[role].id)) : apis[role];
  return api.call(name, ARGS[name](role));
}

function check(role: Role, name: RouteName, status: number) {
  const want = EXPECTED[name][role];
  expect([want].flat(), `${name} as ${role} answered ${status}`).toContain(status);
}

describe("authorisation matrix", () => {
  it("names every operation of the contract", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(Object.keys(routes).sort());
    for (const name of Object.keys(routes) as RouteName[]) {
      if (!PUBLIC_ROUTES.has(name)) expect(EXPECTED[name].anonymous, name).toBe(401);
    }
  });

  it("nobody but the owner reads or moves the owner's money or data, whatever they call", async () => {
    const before = await ownerState(t.db, people.owner.id, own);
    for (const name of Object.keys(routes) as RouteName[]) {
      for (const role of ROLES.filter((r) => r !== "owner")) {
        const r = await call(role, name);
        check(role, name, r.status);
        // A refusal carries no trace of the owner's things.
        if (r.status >= 400 && EXPECTED[name].owner === 200)
          expect(JSON.stringify(r.json)).not.toContain(own.ledger.address.replace(/^0x/, "").toLowerCase().slice(0, 12));
        if (name === "getPaymentRequest" && r.status === 200) expect(r.json, role).toMatchObject({ isMine: role === "cashier", payment: null });
        if (name === "getPendingTopUps" && r.status === 200)
          expect(
            (r.json as unknown as { isMine: boolean }[]).every((o) => o.isMine),
            role,
          ).toBe(true);
      }
    }
    expect(await ownerState(t.db, people.owner.id, own)).toEqual(before);
    expect(await ledgerViolations(t.db)).toEqual([]);
  });

  it("the owner gets each answer the table says", async () => {
    // The PIN and the order go last: opening with a wrong proof counts, deleting removes them.
    const last: RouteName[] = ["openPin", "deletePin", "cancelTopUp", "deletePasskey", "removeMyBusiness", "logout"];
    const names = [...(Object.keys(routes) as RouteName[]).filter((n) => !last.includes(n)), ...last];
    for (const name of names) check("owner", name, (await call("owner", name)).status);
    expect(await ledgerViolations(t.db)).toEqual([]);
  });

  it("the owner's call removes the owner's device", async () => {
    expect((await t.db.query("SELECT 1 FROM push_subscriptions WHERE endpoint = $1", [own.pushEndpoint])).rowCount).toBe(0);
  });

  it("a pin proof from another member leaves the owner's PIN counter as it was", async () => {
    const { proofSalt, verifier } = await newPinProof("1357");
    const pinId = (await apis.owner.call("createPin", { body: { walletId: own.ledger.id, verifier } })).json.pinId;
    for (const role of ["other", "both"] as const) {
      const r = await apis[role].call("openPin", { params: { pinId }, body: { proof: await pinProof("1357", proofSalt) } });
      expect(r.status).toBe(410);
    }
    expect((await t.db.query("SELECT failures FROM pins WHERE id = $1", [pinId])).rows[0]).toEqual({ failures: 0 });
    expect((await apis.owner.call("openPin", { params: { pinId }, body: { proof: await pinProof("1357", proofSalt) } })).status).toBe(200);
  });

  it("a ledger payment signed by the owner cannot be sent by another member", async () => {
    const body = signTransfer(own.ledger.key, { from: own.ledger.id, to: payeeLedger, parts: [{ account: "nant", amount: "1.00" }] });
    const before = await walletBalances(t.db, own.ledger.id);
    for (const role of ["other", "both"] as const) expect((await apis[role].call("transfer", { body })).status).toBe(404);
    expect(await walletBalances(t.db, own.ledger.id)).toEqual(before);
    expect((await apis.owner.call("transfer", { body })).status).toBe(200);
  });
});
