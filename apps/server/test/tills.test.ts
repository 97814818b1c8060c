import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LIMITS, SM } from "@mutua/domain";
import { ledgerViolations } from "../src/services/ledger";
import { openCustodialWallet, type BackendRow } from "../src/services/wallets";
import { Api, createBackend, createTestDatabase, memberToken, newKey, seedMember, startServer, topUp, type TestDatabase, type TestServer } from "./helpers";

/**
 * Cashiers (issue 20): a wallet's owner lets another login run its till — take payments into it,
 * see who paid and the sales — and nothing else of it; every grant and revocation is audited.
 * (The authorization matrix checks the cashier against every route of the contract.)
 */

let tdb: TestDatabase;
let server: TestServer;
let custodial: BackendRow;

beforeAll(async () => {
  tdb = await createTestDatabase();
  server = await startServer(tdb.db);
  custodial = await createBackend(tdb.db, { kind: "custodial" });
});

afterEach(async () => {
  expect(await ledgerViolations(tdb.db)).toEqual([]);
});

afterAll(async () => {
  await server?.close();
  await tdb?.drop();
});

let names = 0;
async function person(opts: { balance?: string; wallet?: boolean } = {}) {
  const firstName = `T${++names}`;
  const member = await seedMember(tdb.db, { firstName });
  const wallet = opts.wallet === false ? "" : await openCustodialWallet(tdb.db, custodial, member.id, "active");
  if (opts.balance) await topUp(tdb.db, wallet, opts.balance);
  return { member, firstName, wallet, api: new Api(server.baseUrl, await memberToken(tdb.db, member.id)) };
}
type Person = Awaited<ReturnType<typeof person>>;

const grant = (owner: Person, email: string, wallet = owner.wallet) => owner.api.call("grantCashier", { params: { walletId: wallet }, body: { email } });
const auditOf = async (wallet: string) =>
  (await tdb.db.query("SELECT action, member_id, details FROM audit_log WHERE subject = $1 ORDER BY id", [wallet])).rows as {
    action: string;
    member_id: bigint;
    details: { cashier: number; name: string };
  }[];

describe("cashiers", () => {
  it("the owner names a cashier by e-mail, who then runs the till: asks, sees who paid, sees the sales, cancels; each grant and revocation audited", async () => {
    const shop = await person();
    const clerk = await person({ wallet: false });
    const customer = await person({ balance: "50.00" });
    const granted = await grant(shop, ` ${clerk.member.email.toUpperCase()} `);
    expect(granted.status, JSON.stringify(granted.json)).toBe(200);
    expect(granted.json).toMatchObject({ memberId: Number(clerk.member.id), name: expect.stringContaining(clerk.firstName), email: clerk.member.email });
    // Naming them again changes nothing, and is not audited twice.
    expect((await grant(shop, clerk.member.email)).status).toBe(200);
    expect((await shop.api.call("listCashiers", { params: { walletId: shop.wallet } })).json).toEqual([granted.json]);

    const tills = (await clerk.api.call("listTills")).json;
    expect(tills).toEqual([{ walletId: shop.wallet, shopName: expect.stringContaining(shop.firstName), currency: "TC", currencyName: expect.any(String) }]);

    const asked = await clerk.api.call("createPaymentRequest", { body: { walletId: shop.wallet, amount: "6.40", recipientMemo: "Soup" } });
    expect(asked.status, JSON.stringify(asked.json)).toBe(200);
    expect(asked.json).toMatchObject({ walletId: shop.wallet, isMine: true });
    const paid = await customer.api.call("transfer", {
      body: {
        from: customer.wallet,
        to: shop.wallet,
        parts: [{ account: "main", amount: "6.40" }],
        recipientMemo: "Soup",
        key: newKey("till"),
        requestId: asked.json.id,
      },
    });
    expect(paid.status).toBe(200);
    const seen = (await clerk.api.call("getPaymentRequest", { params: { requestId: asked.json.id } })).json;
    expect(seen).toMatchObject({ status: "paid", payment: { payerName: expect.stringContaining(customer.firstName), transactionId: paid.json.id } });
    const range = { from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date(Date.now() + 3_600_000).toISOString() };
    const sales = await clerk.api.call("getSales", { params: { walletId: shop.wallet }, query: range });
    expect(sales.json).toMatchObject({ count: 1, total: "6.40", items: [{ requestId: asked.json.id, memo: "Soup" }] });
    const another = (await clerk.api.call("createPaymentRequest", { body: { walletId: shop.wallet, amount: "1.00" } })).json;
    expect((await clerk.api.call("cancelPaymentRequest", { params: { requestId: another.id } })).json.status).toBe("cancelled");

    // Nothing else of the wallet: not its balance, its history, its money, its cashiers.
    for (const r of [
      await clerk.api.call("getBalance", { params: { walletId: shop.wallet } }),
      await clerk.api.call("getTransactions", { params: { walletId: shop.wallet } }),
      await clerk.api.call("transfer", {
        body: { from: shop.wallet, to: customer.wallet, parts: [{ account: "main", amount: "1.00" }], key: newKey("steal") },
      }),
      await clerk.api.call("grantCashier", { params: { walletId: shop.wallet }, body: { email: customer.member.email } }),
    ]) {
      expect(r.status).toBe(403);
      expect(r.json.error.msgid).toBe(SM.cashierOnly);
    }

    expect((await shop.api.call("revokeCashier", { params: { walletId: shop.wallet, memberId: Number(clerk.member.id) } })).status).toBe(200);
    // Revoked: the till is no longer theirs, and the wallet is as if it did not exist for them.
    expect((await clerk.api.call("listTills")).json).toEqual([]);
    expect((await clerk.api.call("createPaymentRequest", { body: { walletId: shop.wallet, amount: "1.00" } })).status).toBe(404);
    expect((await clerk.api.call("getSales", { params: { walletId: shop.wallet }, query: range })).status).toBe(404);
    expect((await clerk.api.call("getBalance", { params: { walletId: shop.wallet } })).status).toBe(404);
    expect((await clerk.api.call("getPaymentRequest", { params: { requestId: asked.json.id } })).json).toMatchObject({ isMine: false, payment: null });
    // Revoking again changes nothing.
    expect((await shop.api.call("revokeCashier", { params: { walletId: shop.wallet, memberId: Number(clerk.member.id) } })).status).toBe(200);

    expect((await auditOf(shop.wallet)).map((a) => [a.action, a.member_id, a.details.cashier])).toEqual([
      ["cashier_granted", shop.member.id, Number(clerk.member.id)],
      ["cashier_revoked", shop.member.id, Number(clerk.member.id)],
    ]);
  });

  it("refuses an unknown address, oneself, a cashier too many, and anybody but the owner, writing nothing", async () => {
    const shop = await person();
    const stranger = await person();
    const unknown = await grant(shop, "nobody-at-all@example.org");
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.msgid).toBe(SM.cashierUnknown);
    const self = await grant(shop, shop.member.email);
    expect(self.status).toBe(400);
    expect(self.json.error.fields?.email?.msgid).toBe(SM.cashierSelf);
    expect((await grant(shop, "not an address")).status).toBe(404);
    expect((await stranger.api.call("grantCashier", { params: { walletId: shop.wallet }, body: { email: stranger.member.email } })).status).toBe(404);
    expect((await stranger.api.call("listCashiers", { params: { walletId: shop.wallet } })).status).toBe(404);
    expect((await stranger.api.call("revokeCashier", { params: { walletId: shop.wallet, memberId: 1 } })).status).toBe(404);
    expect(await auditOf(shop.wallet)).toEqual([]);

    const staff = [];
    for (let i = 0; i < LIMITS.cashiersPerWallet; i++) staff.push(await person({ wallet: false }));
    const answers = await Promise.all(staff.map((p) => grant(shop, p.member.email)));
    expect(answers.map((a) => a.status)).toEqual(staff.map(() => 200));
    const extra = await person({ wallet: false });
    const over = await grant(shop, extra.member.email);
    expect(over.status).toBe(409);
    expect(over.json.error.msgid).toBe(SM.cashierTooMany);
    expect((await tdb.db.query("SELECT count(*)::int AS n FROM wallet_cashiers WHERE wallet_id = $1", [shop.wallet])).rows[0]).toEqual({
      n: LIMITS.cashiersPerWallet,
    });
  });
});
