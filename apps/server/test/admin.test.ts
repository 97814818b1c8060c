import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN_ROUTES, ErrorCode, M, routes, type RouteName, SM } from "@mutua/domain";
import { openCustodialWallet, systemWallet, type BackendRow } from "../src/services/wallets/wallets";
import {
  Api,
  countMovements,
  createBackend,
  memberToken,
  newKey,
  openTestLedgerWallet,
  seedMember,
  TEST_PASSWORD,
  TINY_PNG,
  topUp,
  walletBalances,
} from "./helpers";
import { setupServerTest } from "./setup";

/** Administrators: who may call what, validating credits exactly once, pending wallet creations, the audit log. */

const t = setupServerTest();
let custodial: BackendRow;
let ledger: BackendRow;
let member: Api;
let accountsAdmin: Api;
let creditsAdmin: Api;
let bothAdmin: Api;
let board: Api;
let owner: Api;
let creditsAdminId: bigint;
let accountsAdminId: bigint;
let bothAdminId: bigint;

const api = async (
  opts: { firstName?: string; canValidateAccounts?: boolean; canValidateCredits?: boolean; canViewFigures?: boolean; canManageAssociation?: boolean } = {},
) => {
  const m = await seedMember(t.db, opts);
  return { id: m.id, api: new Api(t.server.baseUrl, await memberToken(t.db, m.id)) };
};

beforeAll(async () => {
  custodial = await createBackend(t.db, { kind: "custodial", symbol: "DL" });
  ledger = await createBackend(t.db, { kind: "ledger", cmFloor: "-10.00", cmCeiling: "20.00", symbol: "DL" });
  member = (await api()).api;
  const a = await api({ canValidateAccounts: true });
  accountsAdmin = a.api;
  accountsAdminId = a.id;
  const c = await api({ canValidateCredits: true });
  creditsAdmin = c.api;
  creditsAdminId = c.id;
  const both = await api({ canValidateAccounts: true, canValidateCredits: true });
  bothAdmin = both.api;
  bothAdminId = both.id;
  board = (await api({ canViewFigures: true })).api;
  owner = (await api({ canManageAssociation: true })).api;
});

const auditRows = async (subject: string) =>
  (
    await t.db.query<{ member_id: bigint; action: string; details: Record<string, unknown> }>(
      "SELECT member_id, action, details FROM audit_log WHERE subject = $1 ORDER BY id",
      [subject],
    )
  ).rows;

const LINK_TERMS = { ourValue: "1", theirValue: "1.25", trustLimit: "100.00", enabled: true };

/** Well-formed arguments for every admin operation, so only the right decides the answer. */
const ARGS: Record<string, Parameters<Api["call"]>[1]> = {
  getStagingUserAccounts: {},
  validateCreation: { body: { walletId: "custodial:nope" } },
  discardCreateRequest: { body: { walletId: "custodial:nope" } },
  getCreditRequests: {},
  validateCredit: { body: { id: "to_nope" } },
  markTopUpPaid: { body: { id: "to_nope" } },
  listReconversions: {},
  listUnpaidTopUps: {},
  listAuditLog: {},
  listMemberWallets: {},
  setWalletLimits: { body: { walletId: "custodial:nope", topupAllowed: false } },
  searchMembers: { query: { q: "nobody" } },
  getMemberFile: { params: { memberId: 999_999_999 } },
  signOutMember: { params: { memberId: 999_999_999 } },
  resetMemberPins: { params: { memberId: 999_999_999 } },
  sendMemberPasswordReset: { params: { memberId: 999_999_999 } },
  setMemberRights: {
    params: { memberId: 999_999_999 },
    body: { rights: { accounts: false, credits: false, board: true, owner: false }, password: TEST_PASSWORD },
  },
  freezeWallet: { body: { walletId: "custodial:nope", reason: "Checked" } },
  unfreezeWallet: { body: { walletId: "custodial:nope" } },
  advanceReconversion: { body: { id: "tx_nope", status: "received" } },
  getFigures: { query: { from: "2026-01-01", to: "2026-01-31", interval: "week", tz: "UTC" } },
  getBooks: { query: { from: "2026-01-01", to: "2026-01-31", tz: "UTC" } },
  getLedgerHealth: {},
  checkLedger: {},
  getAssociationSettings: {},
  // From a version long gone: the owner's save is refused (409) and changes nothing here.
  saveAssociationSettings: {
    body: {
      identity: {
        name: "Other",
        theme: { primaryColor: null, topBarColor: null, topBarTextColor: null },
        helpUrl: null,
        cguUrl: null,
        mapUrl: null,
        allowSignup: true,
        allowResetPassword: true,
      },
      money: { currencyName: "Other", currencySymbol: "O", backends: [], topUps: false, reconversions: true, bank: { iban: "", bic: "", holder: "" } },
      basedOn: "2000-01-01T00:00:00.000Z",
    },
  },
  getFloorImpact: { query: { backendId: "ledger:nope", floor: "-10.00" } },
  // A 1×1 PNG's first bytes are enough for its signature.
  // A real PNG (its header is read for its size).
  uploadAssociationLogo: { body: { type: "image/png", data: TINY_PNG.toString("base64") } },
  removeAssociationLogo: {},
  uploadImportFile: { body: { uploadId: null, kind: "members", name: "members.csv", index: 0, data: Buffer.from("external_id,email\n").toString("base64") } },
  previewImport: { body: { members: `up_${"0".repeat(32)}` } },
  runImport: { body: { members: `up_${"0".repeat(32)}` } },
  getInvitations: {},
  sendInvitations: {},
  // Links with other associations: the owner's acceptance names no real invitation (400), its
  // confirmation, terms and withdrawal no link (404).
  listFederationLinks: {},
  createFederationInvitation: {},
  previewFederationInvitation: { body: { code: "MUTUA-LINK:not-a-code" } },
  acceptFederationInvitation: { body: { code: "MUTUA-LINK:not-a-code", terms: LINK_TERMS } },
  confirmFederationLink: { params: { linkId: "fl_nothing_here_at_all" }, body: { terms: LINK_TERMS } },
  setFederationLinkTerms: { params: { linkId: "fl_nothing_here_at_all" }, body: { terms: LINK_TERMS } },
  withdrawFederationInvitation: { params: { linkId: "fl_nothing_here_at_all" } },
  endFederationPayment: { params: { linkId: "fl_nothing_here_at_all", paymentId: "fp_0123456789abcdefghij" } },
  setFederationLinkForwarding: { params: { linkId: "fl_nothing_here_at_all" }, body: { forward: true } },
  // A new key (no link to tell); a peer key replaced on no link (404).
  getFederationKeys: {},
  rotateFederationKey: { body: { revoke: false } },
  replaceFederationPeerKey: { params: { linkId: "fl_nothing_here_at_all" }, body: { fingerprint: "0123456789abcdef0123456789abcdef" } },
  endFederationLink: { params: { linkId: "fl_nothing_here_at_all" } },
  proposeFederationSettlement: { params: { linkId: "fl_nothing_here_at_all" }, body: { amount: "1.00", currency: "ours", note: "" } },
  acceptFederationSettlement: { params: { linkId: "fl_nothing_here_at_all", settlementId: "fs_0123456789abcdefghij" } },
  declineFederationSettlement: { params: { linkId: "fl_nothing_here_at_all", settlementId: "fs_0123456789abcdefghij" } },
  withdrawFederationSettlement: { params: { linkId: "fl_nothing_here_at_all", settlementId: "fs_0123456789abcdefghij" } },
  listBusinessRequests: {},
  approveBusiness: { params: { businessId: "bz_nothing-here-at-all" } },
  discardBusiness: { params: { businessId: "bz_nothing-here-at-all" } },
  getDirectorySettings: {},
  saveDirectorySettings: {
    body: {
      categories: [{ id: null, en: "Bakery", fr: "Boulangerie" }],
      tileUrl: null,
      tileAttribution: null,
      geocoderUrl: null,
      timeZone: "Europe/Paris",
      embedOrigins: [],
    },
  },
  getBusinessFigures: {},
  listReportedOffers: {},
  hideOffer: { params: { offerId: `of_${"A".repeat(22)}` }, body: { reason: "Abusive" } },
  // Dues: a plan from far ahead (nothing falls due during the test), and a period nobody has.
  getDuesSettings: {},
  saveDuesSettings: { body: { mode: "fixed", period: "monthly", firstDate: "2099-01-01", memberAmount: "2.00", businessAmount: null, rate: null } },
  listDuesArrears: {},
  waiveDues: { params: { duesId: `du_${"0".repeat(24)}` } },
};

describe("who may call the admin operations", () => {
  const all = Object.values(ADMIN_ROUTES).flat() as RouteName[];

  it("covers every admin operation of the contract", () => {
    expect(Object.keys(ARGS).sort()).toEqual([...all].sort());
    for (const name of all) expect(routes[name].path).toMatch(/^\/api\/admin\//);
  });

  it.each(all)("%s: 401 anonymous, 403 without the right (also with a malformed body), allowed with it", async (name) => {
    const anonymous = await new Api(t.server.baseUrl).call(name, ARGS[name]);
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.error.code).toBe("login_required");
    const right = (Object.entries(ADMIN_ROUTES) as [keyof typeof ADMIN_ROUTES, readonly RouteName[]][]).find(([, names]) => names.includes(name))![0];
    // The board's right is read-only: its holder gets nothing else.
    const without =
      right === "accounts"
        ? [member, creditsAdmin, board]
        : right === "credits"
          ? [member, accountsAdmin, board]
          : right === "board"
            ? [member, accountsAdmin, creditsAdmin]
            : right === "owner"
              ? [member, accountsAdmin, creditsAdmin, board, bothAdmin]
              : right === "accountsOrOwner"
                ? [member, creditsAdmin, board]
                : [member, accountsAdmin, creditsAdmin, board, owner];
    for (const a of without) {
      const r = await a.call(name, ARGS[name]);
      expect(r.status, name).toBe(403);
      expect(r.json.error).toMatchObject({ code: "forbidden", message: M.forbidden });
      if (routes[name].method === "POST") expect((await a.call(name, { ...ARGS[name], body: { nonsense: 1 } })).status).toBe(403);
    }
    const holders =
      right === "accounts"
        ? [accountsAdmin, bothAdmin]
        : right === "credits"
          ? [creditsAdmin, bothAdmin]
          : right === "board"
            ? [board, bothAdmin]
            : right === "owner"
              ? [owner]
              : right === "accountsOrOwner"
                ? [accountsAdmin, bothAdmin, owner]
                : [bothAdmin];
    const allowed =
      name === "saveAssociationSettings" ? [409] : name === "acceptFederationInvitation" || name === "previewFederationInvitation" ? [400] : [200, 404];
    for (const a of holders) expect(allowed, name).toContain((await a.call(name, ARGS[name])).status);
  });
});

describe("credit validation", () => {
  async function paidOrder(amount: string, backend: BackendRow = custodial, firstName = "Owner") {
    const owner = await api({ firstName });
    const wallet = backend.kind === "ledger" ? (await openTestLedgerWallet(t.db, backend, owner.id)).id : await openCustodialWallet(t.db, backend, owner.id);
    const order = await owner.api.call("createTopUp", { body: { walletId: wallet, amount } });
    expect(order.status).toBe(200);
    const paid = await creditsAdmin.call("markTopUpPaid", { body: { id: order.json.id } });
    expect(paid.json).toEqual({ id: order.json.id, state: "paid" });
    return { owner, wallet, id: order.json.id };
  }

  it("marks a bank-transferred order paid once (audited), and lists it for validation", async () => {
    const { id, wallet, owner } = await paidOrder("25.00", custodial, "Grace");
    expect((await creditsAdmin.call("markTopUpPaid", { body: { id } })).json).toEqual({ id, state: "paid" });
    expect(await auditRows(id)).toEqual([{ member_id: creditsAdminId, action: "topup.mark_paid", details: { amount: "25.00", walletId: wallet } }]);
    const list = await creditsAdmin.call("getCreditRequests");
    expect(list.json.find((r) => r.id === id)).toMatchObject({
      related: "Grace Member",
      memberId: Number(owner.id),
      walletId: wallet,
      amount: "25.00",
      currency: "DL",
      backendId: custodial.id,
      currencyName: expect.stringMatching(/^Currency /),
      email: expect.stringContaining("@"),
    });
  });

  it("credits exactly once with five concurrent approvals and a later repeat", async () => {
    const { id, wallet, owner } = await paidOrder("25.00", custodial, "Henry");
    const issuance = (await systemWallet(t.db, custodial.id, "issuance"))!.id;
    const issuanceBefore = await walletBalances(t.db, issuance);
    const movementsBefore = await countMovements(t.db);
    const all = await Promise.all(Array.from({ length: 5 }, () => creditsAdmin.call("validateCredit", { body: { id } })));
    expect(all.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const first = all[0]!.json;
    expect(first).toMatchObject({ id, state: "received", related: "Henry Member", amount: "25.00", currency: "DL" });
    for (const r of all) expect(r.json).toEqual(first);
    expect(await countMovements(t.db)).toBe(movementsBefore + 1);
    expect(await walletBalances(t.db, wallet)).toEqual({ main: "25.00" });
    expect(BigInt((await walletBalances(t.db, issuance)).main!.replace(".", ""))).toBe(BigInt(issuanceBefore.main!.replace(".", "")) - 2500n);

    const later = await bothAdmin.call("validateCredit", { body: { id } });
    expect(later.json).toEqual(first);
    expect(await walletBalances(t.db, wallet)).toEqual({ main: "25.00" });
    expect(await countMovements(t.db)).toBe(movementsBefore + 1);
    expect((await auditRows(id)).map((r) => r.action)).toEqual(["topup.mark_paid", "credit.validate"]);

    // The member sees the top-up in their history, and no longer as pending.
    const txs = await owner.api.call("getTransactions", { params: { walletId: wallet } });
    expect(txs.json.items).toEqual([
      expect.objectContaining({ id: first.transactionId, kind: "topup", isTopUp: true, amount: "25.00", reconversionStatus: null }),
    ]);
    expect((await owner.api.call("getPendingTopUps", { query: { walletId: wallet } })).json).toEqual([]);
    expect((await creditsAdmin.call("getCreditRequests")).json.map((r) => r.id)).not.toContain(id);
    const { rows } = await t.db.query(
      "SELECT state, validated_by, idempotency_key FROM topup_orders o JOIN movements m ON m.id = o.movement_id WHERE o.public_id = $1",
      [id],
    );
    expect(rows).toEqual([{ state: "received", validated_by: creditsAdminId, idempotency_key: `topup:${id}` }]);
  });

  it("credits a ledger wallet's pledged (Nant) account", async () => {
    const { id, wallet } = await paidOrder("12.00", ledger);
    expect((await creditsAdmin.call("validateCredit", { body: { id } })).status).toBe(200);
    expect(await walletBalances(t.db, wallet)).toEqual({ nant: "12.00", cm: "0.00" });
  });

  it("refuses to validate an unpaid or deleted order (409) and unknown ones (404)", async () => {
    const owner = await api();
    const wallet = await openCustodialWallet(t.db, custodial, owner.id);
    const order = await owner.api.call("createTopUp", { body: { walletId: wallet, amount: "10.00" } });
    const unpaid = await creditsAdmin.call("validateCredit", { body: { id: order.json.id } });
    expect(unpaid.status).toBe(409);
    expect(unpaid.json.error).toMatchObject({ code: "state_conflict", message: SM.requestAlreadyHandled });
    await owner.api.call("cancelTopUp", { body: { id: order.json.id } });
    expect((await creditsAdmin.call("validateCredit", { body: { id: order.json.id } })).status).toBe(409);
    expect((await creditsAdmin.call("markTopUpPaid", { body: { id: order.json.id } })).status).toBe(409);
    expect((await creditsAdmin.call("validateCredit", { body: { id: "to_nope" } })).status).toBe(404);
    expect(await walletBalances(t.db, wallet)).toEqual({ main: "0.00" });
    expect(await auditRows(order.json.id)).toEqual([]);
  });
});

describe("pending wallet creations", () => {
  it("lists pending wallets, approves idempotently and audits once", async () => {
    const m = await seedMember(t.db, { firstName: "Ivy", lastName: "Waiting" });
    const wallet = await openCustodialWallet(t.db, custodial, m.id, "pending");
    const list = await accountsAdmin.call("getStagingUserAccounts");
    expect(list.json.find((a) => a.walletId === wallet)).toMatchObject({
      memberId: Number(m.id),
      name: "Ivy Waiting",
      email: expect.stringContaining("@"),
      backend: "custodial",
      backendId: custodial.id,
      currencyName: expect.stringMatching(/^Currency /),
    });
    for (let i = 0; i < 2; i++)
      expect((await accountsAdmin.call("validateCreation", { body: { walletId: wallet } })).json).toEqual({ walletId: wallet, status: "active" });
    expect((await t.db.query("SELECT status FROM wallets WHERE id = $1", [wallet])).rows).toEqual([{ status: "active" }]);
    expect(await auditRows(wallet)).toEqual([{ member_id: accountsAdminId, action: "account.validate", details: { memberId: String(m.id) } }]);
    expect((await accountsAdmin.call("getStagingUserAccounts")).json.map((a) => a.walletId)).not.toContain(wallet);
    // Approved is approved: it cannot be discarded afterwards.
    expect((await accountsAdmin.call("discardCreateRequest", { body: { walletId: wallet } })).status).toBe(409);
  });

  it("approves a pending ledger wallet with the mutual-credit limits it was opened with", async () => {
    const m = await seedMember(t.db);
    const w = await openTestLedgerWallet(t.db, ledger, m.id, "pending");
    expect((await accountsAdmin.call("validateCreation", { body: { walletId: w.id } })).status).toBe(200);
    const { rows } = await t.db.query("SELECT floor, ceiling FROM accounts WHERE wallet_id = $1 AND kind = 'cm'", [w.id]);
    expect(rows).toEqual([{ floor: -1000n, ceiling: 2000n }]);
  });

  it("discards idempotently, and the member may ask for a wallet again", async () => {
    const m = await seedMember(t.db);
    const wallet = await openCustodialWallet(t.db, custodial, m.id, "pending");
    // While the request stands, a second one on the backend is refused by the database.
    await expect(openCustodialWallet(t.db, custodial, m.id, "pending")).rejects.toThrow(/wallets_one_per_member/);
    for (let i = 0; i < 2; i++) {
      expect((await accountsAdmin.call("discardCreateRequest", { body: { walletId: wallet } })).json).toEqual({ walletId: wallet, status: "discarded" });
    }
    expect((await auditRows(wallet)).map((r) => r.action)).toEqual(["account.discard"]);
    expect((await accountsAdmin.call("validateCreation", { body: { walletId: wallet } })).status).toBe(409);
    const again = await openCustodialWallet(t.db, custodial, m.id, "pending");
    expect((await accountsAdmin.call("getStagingUserAccounts")).json.map((a) => a.walletId)).toContain(again);
    expect((await accountsAdmin.call("validateCreation", { body: { walletId: again } })).json.status).toBe("active");
  });

  it("answers 404 for system wallets and unknown ids", async () => {
    const safe = (await systemWallet(t.db, custodial.id, "safe"))!.id;
    expect((await accountsAdmin.call("validateCreation", { body: { walletId: safe } })).status).toBe(404);
    expect((await accountsAdmin.call("discardCreateRequest", { body: { walletId: "custodial:nope" } })).status).toBe(404);
  });
});

describe("separation of duties: an administrator's own wallets and orders are another's to decide", () => {
  /** Everything the refusals must leave as it was: the wallet, its orders, movements and reconversions, and the audit log. */
  async function snapshot(walletId: string) {
    const q = async (sql: string) => (await t.db.query(sql, [walletId])).rows;
    return {
      wallet: await q("SELECT status, frozen_reason, frozen_by, topup_allowed FROM wallets WHERE id = $1"),
      accounts: await q("SELECT kind, balance, floor, ceiling FROM accounts WHERE wallet_id = $1 ORDER BY kind"),
      orders: await q("SELECT public_id, state FROM topup_orders WHERE wallet_id = $1 ORDER BY id"),
      reconversions: await q("SELECT r.status FROM reconversions r JOIN movements m ON m.id = r.movement_id WHERE m.payer_wallet_id = $1"),
      movements: await countMovements(t.db, walletId),
      audit: (await t.db.query("SELECT count(*)::int AS n FROM audit_log")).rows[0],
    };
  }

  const expectOwnRefusal = (r: { status: number; json: { error: { code: string; msgid?: string } } }, msgid: string) => {
    expect(r.status).toBe(403);
    expect(r.json.error).toMatchObject({ code: ErrorCode.forbidden, msgid });
  };

  it("an account administrator's own pending wallet is approved by another one", async () => {
    const wallet = await openCustodialWallet(t.db, custodial, accountsAdminId, "pending");
    const before = await snapshot(wallet);
    const r = await accountsAdmin.call("validateCreation", { body: { walletId: wallet } });
    expectOwnRefusal(r, SM.ownWalletApproval);
    expect(r.json.error.message).toBe("Another administrator must do this: you cannot approve your own wallet.");
    expect(await snapshot(wallet)).toEqual(before);
    expect((await bothAdmin.call("validateCreation", { body: { walletId: wallet } })).json).toEqual({ walletId: wallet, status: "active" });
  });

  it("an order on a credit administrator's wallet, or one they asked for, is neither marked paid nor credited by them", async () => {
    const wallet = await openCustodialWallet(t.db, custodial, creditsAdminId);
    const own = await creditsAdmin.call("createTopUp", { body: { walletId: wallet, amount: "500.00" } });
    expect(own.status).toBe(200);
    // For a member, topped up by the administrator (the spec's "top-ups by other requesters"): theirs too.
    const member = await seedMember(t.db, { firstName: "Topped" });
    const memberWallet = await openCustodialWallet(t.db, custodial, member.id);
    const asked = await creditsAdmin.call("createTopUp", { body: { walletId: memberWallet, amount: "500.00" } });
    expect(asked.status).toBe(200);
    for (const [id, w] of [
      [own.json.id, wallet],
      [asked.json.id, memberWallet],
    ] as const) {
      const before = await snapshot(w);
      expectOwnRefusal(await creditsAdmin.call("markTopUpPaid", { body: { id } }), SM.ownTopUp);
      expect(await snapshot(w)).toEqual(before);
      // Another credit administrator says the money came; the requester still cannot credit it.
      expect((await bothAdmin.call("markTopUpPaid", { body: { id } })).json).toEqual({ id, state: "paid" });
      const paid = await snapshot(w);
      expectOwnRefusal(await creditsAdmin.call("validateCredit", { body: { id } }), SM.ownTopUp);
      expect(await snapshot(w)).toEqual(paid);
      expect(await walletBalances(t.db, w)).toEqual({ main: "0.00" });
      expect((await bothAdmin.call("validateCredit", { body: { id } })).json).toMatchObject({ id, state: "received", amount: "500.00" });
      expect(await walletBalances(t.db, w)).toEqual({ main: "500.00" });
      expect((await auditRows(id)).map((a) => [a.member_id, a.action])).toEqual([
        [bothAdminId, "topup.mark_paid"],
        [bothAdminId, "credit.validate"],
      ]);
    }
  });

  it("an account administrator neither unfreezes nor re-freezes their own wallet; another one does", async () => {
    const wallet = (await openTestLedgerWallet(t.db, ledger, accountsAdminId)).id;
    expect((await bothAdmin.call("freezeWallet", { body: { walletId: wallet, reason: "Checking the top-ups" } })).status).toBe(200);
    const before = await snapshot(wallet);
    expectOwnRefusal(await accountsAdmin.call("unfreezeWallet", { body: { walletId: wallet } }), SM.ownFreeze);
    // Freezing it again would make the freeze theirs to lift.
    expectOwnRefusal(await accountsAdmin.call("freezeWallet", { body: { walletId: wallet, reason: "Mine now" } }), SM.ownFreeze);
    expect(await snapshot(wallet)).toEqual(before);
    expect((await bothAdmin.call("unfreezeWallet", { body: { walletId: wallet } })).json.frozenReason).toBeNull();
  });

  it("an administrator changes neither their own limits nor their own reconversion's stage; another one does", async () => {
    const second = await api({ canValidateAccounts: true, canValidateCredits: true });
    const w = await openTestLedgerWallet(t.db, ledger, bothAdminId);
    await topUp(t.db, w.id, "10.00", "nant");
    const before = await snapshot(w.id);
    expectOwnRefusal(await bothAdmin.call("setWalletLimits", { body: { walletId: w.id, cmFloor: "-500.00", topupAllowed: true } }), SM.ownLimits);
    expect(await snapshot(w.id)).toEqual(before);
    expect((await second.api.call("setWalletLimits", { body: { walletId: w.id, cmFloor: "-20.00" } })).json.cmFloor).toBe("-20.00");

    // A custodial reconversion of their own: "paid" would say the association paid them.
    const own = await openCustodialWallet(t.db, custodial, bothAdminId);
    await topUp(t.db, own, "10.00");
    const safe = (await systemWallet(t.db, custodial.id, "safe"))!.id;
    const sent = await bothAdmin.call("transfer", { body: { from: own, to: safe, parts: [{ account: "main", amount: "4.00" }], key: newKey() } });
    expect(sent.status).toBe(200);
    const sentState = await snapshot(own);
    expectOwnRefusal(await bothAdmin.call("advanceReconversion", { body: { id: sent.json.id, status: "received" } }), SM.ownReconversion);
    expect(await snapshot(own)).toEqual(sentState);
    expect((await second.api.call("advanceReconversion", { body: { id: sent.json.id, status: "received" } })).json.status).toBe("received");
  });

  it("the ledger's health tells the console and the board how many hold each right", async () => {
    const r = await board.call("getLedgerHealth");
    const { rows } = await t.db.query<{ accounts: number; credits: number; both: number }>(
      `SELECT count(*) FILTER (WHERE can_validate_accounts)::int AS accounts, count(*) FILTER (WHERE can_validate_credits)::int AS credits,
              count(*) FILTER (WHERE can_validate_accounts AND can_validate_credits)::int AS both FROM members`,
    );
    expect(r.json.rightHolders).toEqual(rows[0]);
    expect(r.json.rightHolders.both).toBeGreaterThanOrEqual(1);
  });
});
