import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseApiAmount } from "@mutua/domain";
import { ledgerViolations } from "../src/services/ledger";
import { openCustodialWallet, type BackendRow } from "../src/services/wallets";
import { Api, createBackend, createTestDatabase, memberToken, newKey, seedMember, startServer, topUp, type TestDatabase, type TestServer } from "./helpers";

/**
 * A till's sales (issue 20): the payments its wallet received in a range, with their count and
 * total over the whole range, which must be the ledger's own figures for it.
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
async function person(balance?: string) {
  const firstName = `S${++names}`;
  const member = await seedMember(tdb.db, { firstName });
  const wallet = await openCustodialWallet(tdb.db, custodial, member.id, "active");
  if (balance) await topUp(tdb.db, wallet, balance);
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
    const shop = await person("5.00");
    const alice = await person("100.00");
    const bob = await person("100.00");
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
    const payer = await person("100.00");
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
    const payer = await person("10.00");
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
