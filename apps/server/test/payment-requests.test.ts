import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { M, decodeQrContent, encodeQrPayload, SM } from "@mutua/domain";
import { ledgerViolations } from "../src/services/ledger";
import { openCustodialWallet, type BackendRow } from "../src/services/wallets";
import { paymentRequestProblems } from "./reliability/verify";
import {
  Api,
  countMovements,
  createBackend,
  createTestDatabase,
  memberToken,
  newKey,
  openTestLedgerWallet,
  seedMember,
  signTransfer,
  startServer,
  topUp,
  walletBalances,
  type TestDatabase,
  type TestServer,
} from "./helpers";

/**
 * Payment requests (issue 20): created by a payee, read by whoever scanned them, paid exactly once
 * whatever the number of payers and server instances, refused once paid, expired or cancelled.
 */

let tdb: TestDatabase;
let server: TestServer;
let second: TestServer;
let custodial: BackendRow;
let ledger: BackendRow;

beforeAll(async () => {
  tdb = await createTestDatabase();
  server = await startServer(tdb.db);
  // A second instance on the same database: the request row, not a process, decides who pays it.
  second = await startServer(tdb.db);
  custodial = await createBackend(tdb.db, { kind: "custodial" });
  ledger = await createBackend(tdb.db, { kind: "ledger", cmFloor: "-10.00", cmCeiling: "20.00" });
});

afterEach(async () => {
  expect(await ledgerViolations(tdb.db)).toEqual([]);
  // The load runs' invariant: each paid request's movement pays its wallet its amount, in time.
  expect(await paymentRequestProblems(tdb.db)).toEqual([]);
});

afterAll(async () => {
  await second?.close();
  await server?.close();
  await tdb?.drop();
});

let names = 0;
async function person(balance?: string, base = server.baseUrl) {
  const firstName = `R${++names}`;
  const member = await seedMember(tdb.db, { firstName });
  const wallet = await openCustodialWallet(tdb.db, custodial, member.id, "active");
  if (balance) await topUp(tdb.db, wallet, balance);
  return { member, firstName, wallet, api: new Api(base, await memberToken(tdb.db, member.id)) };
}

type Person = Awaited<ReturnType<typeof person>>;

async function ask(shop: Person, amount = "12.50", extra: Record<string, unknown> = {}) {
  const r = await shop.api.call("createPaymentRequest", { body: { walletId: shop.wallet, amount, ...extra } });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json;
}

const pay = (payer: Person, to: string, requestId: string | undefined, amount = "12.50", key = newKey("pr")) =>
  payer.api.call("transfer", { body: { from: payer.wallet, to, parts: [{ account: "main", amount }], key, ...(requestId ? { requestId } : {}) } });

const requestRow = async (id: string) =>
  (await tdb.db.query("SELECT status, movement_id, payer_wallet_id FROM payment_requests WHERE public_id = $1", [id])).rows[0] as {
    status: string;
    movement_id: bigint | null;
    payer_wallet_id: string | null;
  };

describe("creating, reading and cancelling", () => {
  it("creates an open request that any member holding its id reads, without seeing who paid", async () => {
    const shop = await person();
    const customer = await person();
    const before = Date.now();
    const req = await ask(shop, "12.50", { senderMemo: "Bread", recipientMemo: "Sale 42" });
    expect(req).toMatchObject({
      walletId: shop.wallet,
      payee: { memberId: Number(shop.member.id) },
      amount: "12.50",
      senderMemo: "Bread",
      recipientMemo: "Sale 42",
      status: "open",
      isMine: true,
      closedMessage: null,
      payment: null,
    });
    expect(req.id).toMatch(/^pr_[\w-]{22}$/);
    // Ten minutes unless the shop says otherwise.
    const ttl = Date.parse(req.expiresAt) - before;
    expect(ttl).toBeGreaterThan(9.9 * 60_000);
    expect(ttl).toBeLessThan(10.1 * 60_000);
    const seen = await customer.api.call("getPaymentRequest", { params: { requestId: req.id } });
    expect(seen.status).toBe(200);
    expect(seen.json).toMatchObject({ id: req.id, amount: "12.50", status: "open", isMine: false, payment: null });
  });

  it("refuses bad input with 4xx and writes nothing", async () => {
    const shop = await person();
    const other = await person();
    const count = async () => Number((await tdb.db.query("SELECT count(*) FROM payment_requests")).rows[0]!.count);
    const n = await count();
    const cases: [Record<string, unknown>, number][] = [
      [{ walletId: shop.wallet, amount: "0.00" }, 400],
      [{ walletId: shop.wallet, amount: "12.5" }, 400],
      [{ walletId: shop.wallet, amount: "1.00", expiresInMinutes: 0 }, 400],
      [{ walletId: shop.wallet, amount: "1.00", expiresInMinutes: 1441 }, 400],
      [{ walletId: shop.wallet, amount: "1.00", senderMemo: "x".repeat(51) }, 400],
      [{ walletId: shop.wallet, amount: "1.00", recipientMemo: "a\nb" }, 400],
      // Someone else's wallet is one that does not exist.
      [{ walletId: other.wallet, amount: "1.00" }, 404],
    ];
    for (const [body, status] of cases) expect((await shop.api.call("createPaymentRequest", { body })).status, JSON.stringify(body)).toBe(status);
    expect((await shop.api.call("createPaymentRequest", { body: { walletId: shop.wallet, amount: "0.00" } })).json.error.msgid).toBe(
      M.amountRequestNotPositive,
    );
    expect(await count()).toBe(n);
  });

  it("an unknown id is 'Payment request not found.'", async () => {
    const someone = await person();
    const r = await someone.api.call("getPaymentRequest", { params: { requestId: `pr_${"A".repeat(22)}` } });
    expect(r.status).toBe(404);
    expect(r.json.error.msgid).toBe(SM.paymentRequestNotFound);
    expect((await someone.api.call("getPaymentRequest", { params: { requestId: "pr_short" } })).status).toBe(400);
  });

  it("only its owner cancels it; a cancelled request is refused to payers", async () => {
    const shop = await person();
    const customer = await person("50.00");
    const req = await ask(shop);
    const theirs = await customer.api.call("cancelPaymentRequest", { params: { requestId: req.id } });
    expect(theirs.status).toBe(404);
    expect((await requestRow(req.id)).status).toBe("open");
    const cancelled = await shop.api.call("cancelPaymentRequest", { params: { requestId: req.id } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.json).toMatchObject({ status: "cancelled", closedMessage: SM.paymentRequestCancelled });
    const before = await walletBalances(tdb.db, customer.wallet);
    const r = await pay(customer, shop.wallet, req.id);
    expect(r.status).toBe(409);
    expect(r.json.error.msgid).toBe(SM.paymentRequestCancelled);
    expect(await walletBalances(tdb.db, customer.wallet)).toEqual(before);
  });
});

describe("paying a request", () => {
  it("pays it once: the request points at the movement, its owner sees who paid, nobody else does", async () => {
    const shop = await person();
    const customer = await person("50.00");
    const stranger = await person();
    const req = await ask(shop, "12.50", { senderMemo: "Bread" });
    const r = await customer.api.call("transfer", {
      body: { from: customer.wallet, to: shop.wallet, parts: [{ account: "main", amount: "12.50" }], senderMemo: "Bread", key: newKey(), requestId: req.id },
    });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    const row = await requestRow(req.id);
    const movement = (await tdb.db.query("SELECT id, public_id, sender_memo FROM movements WHERE id = $1", [row.movement_id])).rows[0];
    expect(row).toMatchObject({ status: "paid", payer_wallet_id: customer.wallet });
    expect(movement).toMatchObject({ public_id: r.json.id, sender_memo: "Bread" });
    const mine = await shop.api.call("getPaymentRequest", { params: { requestId: req.id } });
    expect(mine.json).toMatchObject({
      status: "paid",
      payment: { transactionId: r.json.id, payerWalletId: customer.wallet, payerName: expect.stringContaining(customer.firstName) },
    });
    for (const who of [customer, stranger]) {
      const seen = await who.api.call("getPaymentRequest", { params: { requestId: req.id } });
      // What paying it would answer, told to whoever scans it before they try.
      expect(seen.json).toMatchObject({ status: "paid", isMine: false, closedMessage: SM.paymentRequestPaid, payment: null });
    }
    // Paid, it cannot be cancelled.
    const cancel = await shop.api.call("cancelPaymentRequest", { params: { requestId: req.id } });
    expect(cancel.status).toBe(409);
    expect(cancel.json.error.msgid).toBe(SM.paymentRequestPaid);
  });

  it("a second payment of it is 'This request has already been paid.' and moves nothing", async () => {
    const shop = await person();
    const first = await person("50.00");
    const late = await person("50.00");
    const req = await ask(shop);
    expect((await pay(first, shop.wallet, req.id)).status).toBe(200);
    const before = [await walletBalances(tdb.db, late.wallet), await walletBalances(tdb.db, shop.wallet)];
    for (const payer of [late, first]) {
      const r = await pay(payer, shop.wallet, req.id);
      expect(r.status).toBe(409);
      expect(r.json.error.msgid).toBe(SM.paymentRequestPaid);
      expect(r.json.error.message).toBe("This request has already been paid.");
    }
    expect([await walletBalances(tdb.db, late.wallet), await walletBalances(tdb.db, shop.wallet)]).toEqual(before);
    expect(await countMovements(tdb.db, late.wallet)).toBe(1);
  });

  it("the retry of the payment that paid it answers that payment, not 'already paid'", async () => {
    const shop = await person();
    const customer = await person("50.00");
    const req = await ask(shop);
    const key = newKey("retry");
    const a = await pay(customer, shop.wallet, req.id, "12.50", key);
    const b = await pay(customer, shop.wallet, req.id, "12.50", key);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.json.id).toBe(a.json.id);
    expect(await walletBalances(tdb.db, customer.wallet)).toEqual({ main: "37.50" });
    // The same key with other details is still an idempotency conflict.
    const c = await pay(customer, shop.wallet, req.id, "12.00", key);
    expect(c.status).toBe(409);
  });

  it("20 payers at once on two instances: exactly one movement, the others refused, the request points at it", async () => {
    const shop = await person();
    const req = await ask(shop, "5.00");
    const payers = await Promise.all(Array.from({ length: 20 }, (_, i) => person("10.00", i % 2 ? second.baseUrl : server.baseUrl)));
    const answers = await Promise.all(payers.map((p) => pay(p, shop.wallet, req.id, "5.00")));
    const ok = answers.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of answers.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.json.error.msgid).toBe(SM.paymentRequestPaid);
    }
    const movements = (await tdb.db.query("SELECT id, public_id FROM movements WHERE payee_wallet_id = $1", [shop.wallet])).rows;
    expect(movements).toHaveLength(1);
    expect(movements[0]!.public_id).toBe(ok[0]!.json.id);
    expect((await requestRow(req.id)).movement_id).toBe(movements[0]!.id);
    expect(await walletBalances(tdb.db, shop.wallet)).toEqual({ main: "5.00" });
  });

  it("an expired request is refused, and reads as expired", async () => {
    const shop = await person();
    const customer = await person("50.00");
    const req = await ask(shop, "12.50", { expiresInMinutes: 1 });
    // Aged in the database rather than waited for.
    await tdb.db.query(
      "UPDATE payment_requests SET created_at = created_at - interval '2 minutes', expires_at = expires_at - interval '2 minutes' WHERE public_id = $1",
      [req.id],
    );
    const r = await pay(customer, shop.wallet, req.id);
    expect(r.status).toBe(409);
    expect(r.json.error.msgid).toBe(SM.paymentRequestExpired);
    expect(await walletBalances(tdb.db, customer.wallet)).toEqual({ main: "50.00" });
    expect((await customer.api.call("getPaymentRequest", { params: { requestId: req.id } })).json).toMatchObject({
      status: "expired",
      closedMessage: SM.paymentRequestExpired,
    });
  });

  it("another amount or another payee is refused, and moves nothing", async () => {
    const shop = await person();
    const elsewhere = await person();
    const customer = await person("50.00");
    const req = await ask(shop);
    for (const [to, amount] of [
      [shop.wallet, "12.49"],
      [shop.wallet, "12.51"],
      [elsewhere.wallet, "12.50"],
    ] as const) {
      const r = await pay(customer, to, req.id, amount);
      expect(r.status).toBe(400);
      expect(r.json.error.msgid).toBe(SM.paymentRequestMismatch);
    }
    expect(await walletBalances(tdb.db, customer.wallet)).toEqual({ main: "50.00" });
    expect((await requestRow(req.id)).status).toBe("open");
    // The right payment still pays it.
    expect((await pay(customer, shop.wallet, req.id)).status).toBe(200);
  });

  it("a ledger wallet pays a request with its usual signed message; the request id is not part of it", async () => {
    const shopMember = await seedMember(tdb.db, { firstName: "LedgerShop" });
    const shopWallet = await openTestLedgerWallet(tdb.db, ledger, shopMember.id);
    const shopApi = new Api(server.baseUrl, await memberToken(tdb.db, shopMember.id));
    const payerMember = await seedMember(tdb.db, { firstName: "LedgerPayer" });
    const payerWallet = await openTestLedgerWallet(tdb.db, ledger, payerMember.id);
    await topUp(tdb.db, payerWallet.id, "20.00", "nant");
    const payerApi = new Api(server.baseUrl, await memberToken(tdb.db, payerMember.id));
    const req = (await shopApi.call("createPaymentRequest", { body: { walletId: shopWallet.id, amount: "4.00" } })).json;
    const wrong = signTransfer(payerWallet.key, { from: payerWallet.id, to: shopWallet.id, parts: [{ account: "nant", amount: "3.00" }] });
    expect((await payerApi.call("transfer", { body: { ...wrong, requestId: req.id } })).json.error.msgid).toBe(SM.paymentRequestMismatch);
    const body = {
      ...signTransfer(payerWallet.key, { from: payerWallet.id, to: shopWallet.id, parts: [{ account: "nant", amount: "4.00" }] }),
      requestId: req.id,
    };
    const r = await payerApi.call("transfer", { body });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect((await requestRow(req.id)).status).toBe("paid");
    // Its replay answers the same payment; a fresh signed payment of the same request is refused.
    expect((await payerApi.call("transfer", { body })).json.id).toBe(r.json.id);
    const again = signTransfer(payerWallet.key, { from: payerWallet.id, to: shopWallet.id, parts: [{ account: "nant", amount: "4.00" }] });
    expect((await payerApi.call("transfer", { body: { ...again, requestId: req.id } })).json.error.msgid).toBe(SM.paymentRequestPaid);
    expect(await walletBalances(tdb.db, payerWallet.id)).toMatchObject({ nant: "16.00" });
  });
});

describe("Monujo's QR codes", () => {
  it("a Monujo-format payment request (no request id) pays as a plain payment, leaving the request open", async () => {
    const shop = await person();
    const customer = await person("50.00");
    const req = await ask(shop);
    // Monujo encodes only rp, rpb, amount and the memos: what an older client reads from our code.
    const monujo = JSON.stringify({ rp: Number(shop.member.id), rpb: shop.wallet, amount: "12.50", senderMemo: "Coffee", recipientMemo: null });
    const decoded = decodeQrContent(monujo, Number(customer.member.id));
    expect(decoded.ok && decoded.payload.requestId).toBeUndefined();
    // Our own code carries the request id too, and an older client ignores it.
    const ours = encodeQrPayload({ rp: Number(shop.member.id), rpb: shop.wallet, amount: "12.50", requestId: req.id });
    expect(JSON.parse(ours)).toMatchObject({ rp: Number(shop.member.id), rpb: shop.wallet, amount: "12.50", rq: req.id });
    if (!decoded.ok) throw new Error("not decoded");
    const p = decoded.payload;
    const r = await customer.api.call("transfer", {
      body: { from: customer.wallet, to: p.rpb, parts: [{ account: "main", amount: p.amount! }], senderMemo: p.senderMemo ?? "", key: newKey() },
    });
    expect(r.status).toBe(200);
    expect(await walletBalances(tdb.db, shop.wallet)).toEqual({ main: "12.50" });
    // The plain payment is not the request's: the till still waits for its own.
    expect((await requestRow(req.id)).status).toBe("open");
  });
});
