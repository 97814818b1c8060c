import { beforeAll, describe, expect, it } from "vitest";
import { newPinProof } from "@mutua/wallet";
import { SM } from "@mutua/domain";
import type { Mail } from "../src/services/platform/mail";
import { openCustodialWallet, systemWallet, type BackendRow } from "../src/services/wallets/wallets";
import { Api, createBackend, memberToken, newKey, openTestLedgerWallet, seedMember, signTransfer, topUp, type SeededMember } from "./helpers";
import { setupServerTest } from "./setup";

/**
 * A member's page for the account administrators: found by name or e-mail, their
 * wallets, last movements, what is pending, their sessions and PINs; signing them out
 * everywhere, giving their PINs their attempts back and sending a password reset, each audited.
 */
let custodial: BackendRow;
let ledger: BackendRow;
let admin: Api;
let adminId: bigint;
let elodie: SeededMember;
let elodieApi: Api;
let wallet: string;
let ledgerWallet: string;
let pinId: string;
const sent: Mail[] = [];

const auditOf = async (action: string) =>
  (await t.db.query("SELECT subject, details FROM audit_log WHERE member_id = $1 AND action = $2", [adminId, action])).rows;

const t = setupServerTest({ server: { mailer: { send: async (m) => void sent.push(m) }, env: { PUBLIC_URL: "http://wallet.example.test" } } });

beforeAll(async () => {
  custodial = await createBackend(t.db, { kind: "custodial", symbol: "DL" });
  ledger = await createBackend(t.db, { kind: "ledger", symbol: "DL" });
  adminId = (await seedMember(t.db, { firstName: "Axel", canValidateAccounts: true })).id;
  admin = new Api(t.server.baseUrl, await memberToken(t.db, adminId));
  elodie = await seedMember(t.db, { firstName: "Élodie", lastName: "Crémieux", phone: "+33 6 00 00 00 01", email: "e.c@asso.example" });
  elodieApi = new Api(t.server.baseUrl, await memberToken(t.db, elodie.id));
  wallet = await openCustodialWallet(t.db, custodial, elodie.id, "active");
  const bob = await seedMember(t.db, { firstName: "Bob", lastName: "Durand" });
  const bobWallet = await openCustodialWallet(t.db, custodial, bob.id, "active");
  await topUp(t.db, wallet, "40.00");
  expect(
    (
      await elodieApi.call("transfer", {
        body: { from: wallet, to: bobWallet, parts: [{ account: "main", amount: "2.50" }], key: newKey(), senderMemo: "Bread" },
      })
    ).status,
  ).toBe(200);
  expect((await elodieApi.call("createTopUp", { body: { walletId: wallet, amount: "15.00" } })).status).toBe(200);
  // A ledger wallet with a reconversion sent and a PIN with three wrong attempts.
  const lw = await openTestLedgerWallet(t.db, ledger, elodie.id);
  ledgerWallet = lw.id;
  await topUp(t.db, ledgerWallet, "30.00");
  const safe = (await systemWallet(t.db, ledger.id, "safe"))!.id;
  expect(
    (await elodieApi.call("transfer", { body: signTransfer(lw.key, { from: ledgerWallet, to: safe, parts: [{ account: "nant", amount: "10.00" }] }) })).status,
  ).toBe(200);
  const { verifier } = await newPinProof("2468");
  pinId = (await elodieApi.call("createPin", { body: { walletId: ledgerWallet, verifier } })).json.pinId;
  for (let i = 0; i < 3; i++) expect((await elodieApi.call("openPin", { params: { pinId }, body: { proof: "cd".repeat(32) } })).status).toBe(403);
  // A native app's biometric sign-in (it needs a session that proved the password).
  expect((await new Api(t.server.baseUrl, await memberToken(t.db, elodie.id, { fresh: true })).call("createDeviceLogin")).status).toBe(200);
});

describe("a member's page", () => {
  it("finds the member by name without accents, by e-mail and by phone", async () => {
    for (const q of ["cremieux", "ÉLODIE", "asso.example", "+33 6 00 00 00 01", "33600000001"]) {
      const r = await admin.call("searchMembers", { query: { q } });
      expect(r.status).toBe(200);
      expect(r.json, q).toEqual([
        { memberId: Number(elodie.id), name: "Élodie Crémieux", email: elodie.email, phone: "+33 6 00 00 00 01", wallets: 2, frozen: 0 },
      ]);
    }
  });

  it("shows the wallets, the last movements from the member's side, what is pending, sessions and PINs", async () => {
    const r = await admin.call("getMemberFile", { params: { memberId: Number(elodie.id) } });
    expect(r.status).toBe(200);
    const f = r.json;
    expect(f).toMatchObject({ name: "Élodie Crémieux", rights: { accounts: false, credits: false, board: false }, deviceLogins: 1 });
    expect(f.wallets.map((w) => [w.walletId, w.bal, w.frozenReason])).toEqual(
      [
        [wallet, "37.50", null],
        [ledgerWallet, "20.00", null],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(f.transactions.map((t) => [t.kind, t.amount, t.counterparty, t.memo])).toEqual([
      ["reconversion", "-10.00", { name: null, role: "safe" }, ""],
      ["topup", "30.00", { name: null, role: "issuance" }, "Top-up"],
      ["payment", "-2.50", { name: "Bob Durand", role: "member" }, "Bread"],
      ["topup", "40.00", { name: null, role: "issuance" }, "Top-up"],
    ]);
    expect(f.topUps).toMatchObject([{ walletId: wallet, amount: "15.00", state: "unpaid" }]);
    expect(f.reconversions).toMatchObject([{ walletId: ledgerWallet, amount: "10.00", status: "sent" }]);
    expect(f.sessions.length).toBeGreaterThanOrEqual(2);
    expect(f.pins).toEqual([{ walletId: ledgerWallet, failures: 3, attemptsLeft: 2, lastUsedAt: null }]);
  });

  it("gives the PINs their attempts back, audited", async () => {
    const r = await admin.call("resetMemberPins", { params: { memberId: Number(elodie.id) } });
    expect(r.status).toBe(200);
    expect(r.json.pins).toEqual([{ walletId: ledgerWallet, failures: 0, attemptsLeft: 5, lastUsedAt: null }]);
    expect(await auditOf("member.pin_attempts_reset")).toEqual([{ subject: `member:${elodie.id}`, details: { pins: 1 } }]);
  });

  it("sends a password reset link, audited, and says so like the member's own request when resets are off", async () => {
    const r = await admin.call("sendMemberPasswordReset", { params: { memberId: Number(elodie.id) } });
    expect(r.status).toBe(200);
    const resets = () => sent.filter((m) => m.to === elodie.email && m.subject === "Choose a new password");
    await expect.poll(() => resets().length).toBe(1);
    expect(resets()[0]!.text).toMatch(/^Hello Élodie,[\s\S]*http:\/\/wallet\.example\.test\/reset-password\?token=/);
    expect(await auditOf("member.password_reset_sent")).toEqual([{ subject: `member:${elodie.id}`, details: { email: elodie.email } }]);
    const off = await t.startServer({ env: { ALLOW_RESET_PASSWORD: "false" } });
    const refused = await new Api(off.baseUrl, await memberToken(t.db, adminId)).call("sendMemberPasswordReset", {
      params: { memberId: Number(elodie.id) },
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(refused.json.error.message).toBe(SM.resetDisabled);
  });

  it("counts the administrator's reset links in the member's own per-address budget: past it, 429 and no mail", async () => {
    const strict = await t.startServer({
      mailer: { send: async (m) => void sent.push(m) },
      env: { RATE_LIMIT_RESET_ACCOUNT_MAX: "3", RATE_LIMIT_RESET_ACCOUNT_WINDOW: "600" },
    });
    const m = await seedMember(t.db, { firstName: "Gaspard" });
    const byAdmin = () => new Api(strict.baseUrl, admin.token).call("sendMemberPasswordReset", { params: { memberId: Number(m.id) } });
    const byMember = () => new Api(strict.baseUrl).call("resetPassword", { body: { email: m.email.toUpperCase() } });
    const tokens = async () => (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM password_resets WHERE member_id = $1", [m.id])).rows[0]!.n;
    expect((await byMember()).status).toBe(200);
    expect((await byAdmin()).status).toBe(200);
    expect((await byAdmin()).status).toBe(200);
    for (const refused of [await byAdmin(), await byMember()]) {
      expect(refused.status).toBe(429);
      expect(refused.json.error.msgid).toBe(SM.rateLimited);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // Only the three within the budget made a link, were audited and mailed.
    expect(await tokens()).toBe(3);
    const audited = await t.db.query("SELECT 1 FROM audit_log WHERE action = 'member.password_reset_sent' AND subject = $1", [`member:${m.id}`]);
    expect(audited.rowCount).toBe(2);
    await expect.poll(() => sent.filter((x) => x.to === m.email).length).toBe(3);
  });

  it("signs the member out everywhere: sessions end and device logins go, audited", async () => {
    expect((await elodieApi.call("getAccounts")).status).toBe(200);
    const r = await admin.call("signOutMember", { params: { memberId: Number(elodie.id) } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ sessions: [], deviceLogins: 0 });
    expect((await elodieApi.call("getAccounts")).status).toBe(401);
    const [row] = await auditOf("member.signed_out");
    expect(row).toMatchObject({ subject: `member:${elodie.id}`, details: { deviceLogins: 1 } });
    expect((row as { details: { sessions: number } }).details.sessions).toBeGreaterThanOrEqual(2);
  });

  it("answers 404 for a member who does not exist, and 400 for an id that is not one", async () => {
    expect((await admin.call("getMemberFile", { params: { memberId: 999_999_999 } })).status).toBe(404);
    expect((await admin.call("signOutMember", { params: { memberId: 999_999_999 } })).status).toBe(404);
    expect((await admin.call("getMemberFile", { params: { memberId: "abc" as unknown as number } })).status).toBe(400);
  });
});
