import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LIMITS, SM, parseApiAmount } from "@mutua/domain";
import { ledgerViolations } from "../src/services/ledger";
import { openCustodialWallet, type BackendRow } from "../src/services/wallets";
import { Api, createBackend, createTestDatabase, memberToken, newKey, seedMember, startServer, topUp, type TestDatabase, type TestServer } from "./helpers";

/**
 * Tills (issue 20). Their sales: the payments a wallet received in a range, with their count and
 * total over the whole range, which must be the ledger's own figures for it. Their cashiers: a
 * wallet's owner lets another login run its till — take payments into it, see who paid and the
 * sales — and nothing else of it; every grant and revocation is audited. (The authorization matrix
 * checks the cashier against every route of the contract.)
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

async function pay(payer: Person, to: string, amount: string, extra: Record<string, unknown> = {}) {
  const r = await payer.api.call("transfer", { body: { from: payer.wallet, to, parts: [{ account: "main", amount }], key: newKey("sale"), ...extra } });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json.id as string;
}

const hour = 3_600_000;
const around = () => ({ from: new Date(Date.now() - hour).toISOString(), to: new Date(Date.now() + hour).toISOString() });

/** What the ledger credited the wallet by payments in the range: the sum of its own postings. */
async function ledgerSum(wallet: string, from: string, to: string): Promise<bigint> {
  const { rows } = await tdb.db.query<{ sum: string | null }>(
    `SELECT sum(p.amount)::text AS sum FROM postings p JOIN accounts a ON a.id = p.account_id JOIN movements m ON m.id = p.movement_id
      WHERE a.wallet_id = $1 AND m.kind = 'payment' AND m.payee_wallet_id = $1 AND m.created_at >= $2 AND m.created_at < $3`,
    [wallet, from, to],
  );
  return BigInt(rows[0]!.sum ?? "0");
}

describe("a till's sales", () => {
  it("lists the payments received (a paid request with its id), newest first, with the ledger's count and total; nothing else counts", async () => {
    const shop = await person({ balance: "5.00" });
    const alice = await person({ balance: "100.00" });
    const bob = await person({ balance: "100.00" });
    const request = (await shop.api.call("createPaymentRequest", { body: { walletId: shop.wallet, amount: "12.50", recipientMemo: "Bread" } })).json;
    const first = await pay(alice, shop.wallet, "12.50", { requestId: request.id, recipientMemo: "Bread" });
    const second = await pay(bob, shop.wallet, "3.20", { recipientMemo: "Apples" });
    // Not sales: a top-up of the shop's, what the shop paid, and money paid to someone else.
    await topUp(tdb.db, shop.wallet, "7.00");
    await pay(shop, bob.wallet, "1.00");
    await pay(alice, bob.wallet, "9.99");

    const range = around();
    const r = await shop.api.call("getSales", { params: { walletId: shop.wallet }, query: range });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json).toMatchObject({ currency: "TC", shopName: expect.stringContaining(shop.firstName), count: 2, total: "15.70", next: null });
    expect(r.json.items).toEqual([
      { transactionId: second, amount: "3.20", payerName: expect.stringContaining(bob.firstName), memo: "Apples", date: expect.any(String), requestId: null },
      {
        transactionId: first,
        amount: "12.50",
        payerName: expect.stringContaining(alice.firstName),
        memo: "Bread",
        date: expect.any(String),
        requestId: request.id,
      },
    ]);
    expect(parseApiAmount(r.json.total)).toBe(await ledgerSum(shop.wallet, range.from, range.to));
  });

  it("pages without losing or repeating a sale, the count and total always over the whole range", async () => {
    const shop = await person();
    const payer = await person({ balance: "100.00" });
    const ids: string[] = [];
    for (let i = 1; i <= 7; i++) ids.push(await pay(payer, shop.wallet, `${i}.00`));
    const range = around();
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = (await shop.api.call("getSales", { params: { walletId: shop.wallet }, query: { ...range, limit: 3, ...(cursor ? { cursor } : {}) } })).json;
      expect(page).toMatchObject({ count: 7, total: "28.00" });
      seen.push(...page.items.map((s: { transactionId: string }) => s.transactionId));
      cursor = page.next ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });

  it("counts a sale at `from` and none at `to`: days meet without a sale in both or in neither", async () => {
    const shop = await person();
    const payer = await person({ balance: "10.00" });
    const ids = [await pay(payer, shop.wallet, "1.00"), await pay(payer, shop.wallet, "2.00"), await pay(payer, shop.wallet, "4.00")];
    const at = (id: string) =>
      tdb.db
        .query<{ at: string }>(`SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at FROM movements WHERE public_id = $1`, [id])
        .then((q) => q.rows[0]!.at);
    const [a, b, c] = [await at(ids[0]!), await at(ids[1]!), await at(ids[2]!)];
    const sales = async (from: string, to: string) => (await shop.api.call("getSales", { params: { walletId: shop.wallet }, query: { from, to } })).json;
    // Three movements of one payer commit one after the other: their times differ.
    expect(a < b && b < c).toBe(true);
    expect(await sales(b, c)).toMatchObject({ count: 1, total: "2.00" });
    expect(await sales(a, b)).toMatchObject({ count: 1, total: "1.00" });
    expect(await sales(c, new Date(Date.now() + hour).toISOString())).toMatchObject({ count: 1, total: "4.00" });
  });

  it("refuses a range backwards, empty or over a year, a forged cursor, and anybody's wallet but the owner's, with 4xx", async () => {
    const shop = await person();
    const other = await person();
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const call = (who: Person, query: Record<string, string | number>) => who.api.call("getSales", { params: { walletId: shop.wallet }, query });
    expect((await call(shop, { from: iso(now), to: iso(now - hour) })).status).toBe(400);
    expect((await call(shop, { from: iso(now), to: iso(now) })).status).toBe(400);
    expect((await call(shop, { from: iso(now - 367 * 24 * hour), to: iso(now) })).status).toBe(400);
    expect((await call(shop, { from: iso(now - 366 * 24 * hour), to: iso(now) })).status).toBe(200);
    expect((await call(shop, { from: "yesterday", to: iso(now) })).status).toBe(400);
    expect((await call(shop, { ...around(), cursor: Buffer.from("0000-01-01T00:00:00.000000Z|1").toString("base64url") })).status).toBe(400);
    expect((await call(shop, { ...around(), limit: 501 })).status).toBe(400);
    expect((await call(other, around())).status).toBe(404);
  });
});

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
