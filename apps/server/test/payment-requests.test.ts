import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { M, decodeQrContent, encodeQrPayload, SM } from "@mutua/domain";
import { sweepExpired } from "../src/maintenance";
import { OPEN_REQUESTS_PER_WALLET, UNPAID_KEPT_HOURS } from "../src/services/payments/payment-requests";
import { openCustodialWallet, type BackendRow } from "../src/services/wallets/wallets";
import { paymentRequestProblems } from "./reliability/verify";
import {
  Api,
  countMovements,
  createBackend,
  http,
  memberToken,
  newKey,
  openTestLedgerWallet,
  seedMember,
  signTransfer,
  topUp,
  walletBalances,
  type TestServer,
} from "./helpers";
import { setupServerTest } from "./setup";

/**
 * Payment requests: created by a payee, read by whoever scanned them, paid exactly once
 * whatever the number of payers and server instances, refused once paid, expired or cancelled.
 */

const t = setupServerTest();
let second: TestServer;
let custodial: BackendRow;
let ledger: BackendRow;

beforeAll(async () => {
  custodial = await createBackend(t.db, { kind: "custodial" });
  ledger = await createBackend(t.db, { kind: "ledger", cmFloor: "-10.00", cmCeiling: "20.00" });
  // A second instance on the same database: the request row, not a process, decides who pays it.
  // It also shows the custodial backend to Lokavaluto clients, and allows 3 new requests per member.
  second = await t.startServer({
    env: { LOKAPI_CYCLOS_BACKEND: custodial.id, RATE_LIMIT_PAYMENT_REQUEST_MEMBER_MAX: "3", RATE_LIMIT_PAYMENT_REQUEST_MEMBER_WINDOW: "600" },
  });
});

afterEach(async () => {
  // The load runs' invariant: each paid request's movement pays its wallet its amount, in time.
  expect(await paymentRequestProblems(t.db)).toEqual([]);
});

let names = 0;
async function person(balance?: string, base = t.server.baseUrl) {
  const firstName = `R${++names}`;
  const member = await seedMember(t.db, { firstName });
  const wallet = await openCustodialWallet(t.db, custodial, member.id, "active");
  if (balance) await topUp(t.db, wallet, balance);
  return { member, firstName, wallet, api: new Api(base, await memberToken(t.db, member.id)) };
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
  (await t.db.query("SELECT status, movement_id, payer_wallet_id FROM payment_requests WHERE public_id = $1", [id])).rows[0] as {
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
    const count = async () => Number((await t.db.query("SELECT count(*) FROM payment_requests")).rows[0]!.count);
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
    const before = await walletBalances(t.db, customer.wallet);
    const r = await pay(customer, shop.wallet, req.id);
    expect(r.status).toBe(409);
    expect(r.json.error.msgid).toBe(SM.paymentRequestCancelled);
    expect(await walletBalances(t.db, customer.wallet)).toEqual(before);
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
    const movement = (await t.db.query("SELECT id, public_id, sender_memo FROM movements WHERE id = $1", [row.movement_id])).rows[0];
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
    const before = [await walletBalances(t.db, late.wallet), await walletBalances(t.db, shop.wallet)];
    for (const payer of [late, first]) {
      const r = await pay(payer, shop.wallet, req.id);
      expect(r.status).toBe(409);
      expect(r.json.error.msgid).toBe(SM.paymentRequestPaid);
      expect(r.json.error.message).toBe("This request has already been paid.");
    }
    expect([await walletBalances(t.db, late.wallet), await walletBalances(t.db, shop.wallet)]).toEqual(before);
    expect(await countMovements(t.db, late.wallet)).toBe(1);
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
    expect(await walletBalances(t.db, customer.wallet)).toEqual({ main: "37.50" });
    // The same key with other details is still an idempotency conflict.
    const c = await pay(customer, shop.wallet, req.id, "12.00", key);
    expect(c.status).toBe(409);
  });

  it("20 payers at once on two instances: exactly one movement, the others refused, the request points at it", async () => {
    const shop = await person();
    const req = await ask(shop, "5.00");
    const payers = await Promise.all(Array.from({ length: 20 }, (_, i) => person("10.00", i % 2 ? second.baseUrl : t.server.baseUrl)));
    const answers = await Promise.all(payers.map((p) => pay(p, shop.wallet, req.id, "5.00")));
    const ok = answers.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of answers.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.json.error.msgid).toBe(SM.paymentRequestPaid);
    }
    const movements = (await t.db.query("SELECT id, public_id FROM movements WHERE payee_wallet_id = $1", [shop.wallet])).rows;
    expect(movements).toHaveLength(1);
    expect(movements[0]!.public_id).toBe(ok[0]!.json.id);
    expect((await requestRow(req.id)).movement_id).toBe(movements[0]!.id);
    expect(await walletBalances(t.db, shop.wallet)).toEqual({ main: "5.00" });
  });

  it("an expired request is refused, and reads as expired", async () => {
    const shop = await person();
    const customer = await person("50.00");
    const req = await ask(shop, "12.50", { expiresInMinutes: 1 });
    // Aged in the database rather than waited for.
    await t.db.query(
      "UPDATE payment_requests SET created_at = created_at - interval '2 minutes', expires_at = expires_at - interval '2 minutes' WHERE public_id = $1",
      [req.id],
    );
    const r = await pay(customer, shop.wallet, req.id);
    expect(r.status).toBe(409);
    expect(r.json.error.msgid).toBe(SM.paymentRequestExpired);
    expect(await walletBalances(t.db, customer.wallet)).toEqual({ main: "50.00" });
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
    expect(await walletBalances(t.db, customer.wallet)).toEqual({ main: "50.00" });
    expect((await requestRow(req.id)).status).toBe("open");
    // The right payment still pays it.
    expect((await pay(customer, shop.wallet, req.id)).status).toBe(200);
  });

  it("a ledger wallet pays a request with its usual signed message; the request id is not part of it", async () => {
    const shopMember = await seedMember(t.db, { firstName: "LedgerShop" });
    const shopWallet = await openTestLedgerWallet(t.db, ledger, shopMember.id);
    const shopApi = new Api(t.server.baseUrl, await memberToken(t.db, shopMember.id));
    const payerMember = await seedMember(t.db, { firstName: "LedgerPayer" });
    const payerWallet = await openTestLedgerWallet(t.db, ledger, payerMember.id);
    await topUp(t.db, payerWallet.id, "20.00", "nant");
    const payerApi = new Api(t.server.baseUrl, await memberToken(t.db, payerMember.id));
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
    expect(await walletBalances(t.db, payerWallet.id)).toMatchObject({ nant: "16.00" });
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
    expect(await walletBalances(t.db, shop.wallet)).toEqual({ main: "12.50" });
    // The plain payment is not the request's: the till still waits for its own.
    expect((await requestRow(req.id)).status).toBe("open");
  });
});

describe("how many requests, and for how long", () => {
  const count = async (walletId: string) =>
    (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM payment_requests WHERE wallet_id = $1", [walletId])).rows[0]!.n;

  it(`a wallet has ${OPEN_REQUESTS_PER_WALLET} open requests at most: the next is refused until one is cancelled`, async () => {
    const shop = await person();
    const open = await Promise.all(Array.from({ length: OPEN_REQUESTS_PER_WALLET }, (_, i) => ask(shop, `${i + 1}.00`)));
    // Asked at once: the wallet's lock counts them one after the other.
    const late = await Promise.all([1, 2].map(() => shop.api.call("createPaymentRequest", { body: { walletId: shop.wallet, amount: "1.00" } })));
    for (const r of late) {
      expect(r.status).toBe(409);
      expect(r.json.error).toMatchObject({ msgid: SM.paymentRequestsTooMany, message: "Too many open payment requests: cancel one first." });
    }
    expect(await count(shop.wallet)).toBe(OPEN_REQUESTS_PER_WALLET);
    expect((await shop.api.call("cancelPaymentRequest", { params: { requestId: open[0]!.id } })).status).toBe(200);
    await ask(shop, "1.00");
    // Expired ones no longer count.
    await t.db.query("UPDATE payment_requests SET created_at = now() - interval '2 hours', expires_at = now() - interval '1 hour' WHERE public_id = $1", [
      open[1]!.id,
    ]);
    await ask(shop, "2.00");
  });

  it("a member creates 3 requests per window here (60 by default): the next answers 429 with Retry-After and writes nothing", async () => {
    const shop = await person(undefined, second.baseUrl);
    for (let i = 0; i < 3; i++) expect((await shop.api.call("createPaymentRequest", { body: { walletId: shop.wallet, amount: "1.00" } })).status).toBe(200);
    const r = await shop.api.call("createPaymentRequest", { body: { walletId: shop.wallet, amount: "1.00" } });
    expect(r.status).toBe(429);
    expect(r.json.error.msgid).toBe(SM.rateLimited);
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await count(shop.wallet)).toBe(3);
  });

  it("the sweep deletes requests never paid a day after they expired, keeps paid and recent ones; paying a swept one moves nothing", async () => {
    const shop = await person();
    const customer = await person("50.00");
    const [lapsed, cancelled, recent, fresh] = [await ask(shop, "1.00"), await ask(shop, "2.00"), await ask(shop, "3.00"), await ask(shop, "4.00")];
    const paid = await ask(shop, "5.00");
    expect((await pay(customer, shop.wallet, paid.id, "5.00")).status).toBe(200);
    expect((await shop.api.call("cancelPaymentRequest", { params: { requestId: cancelled.id } })).status).toBe(200);
    const age = async (id: string, hoursPastExpiry: number) =>
      t.db.query(
        `UPDATE payment_requests SET created_at = now() - make_interval(hours => $2 + 1), expires_at = now() - make_interval(hours => $2),
           paid_at = CASE WHEN paid_at IS NULL THEN NULL ELSE now() - make_interval(hours => $2 + 1) END WHERE public_id = $1`,
        [id, hoursPastExpiry],
      );
    const paidTimes = (await t.db.query("SELECT created_at, expires_at, paid_at FROM payment_requests WHERE public_id = $1", [paid.id])).rows[0];
    for (const id of [lapsed.id, cancelled.id, paid.id]) await age(id, UNPAID_KEPT_HOURS + 1);
    await age(recent.id, 1);

    expect((await sweepExpired(t.db, t.server.settings)).paymentRequests).toBeGreaterThanOrEqual(2);
    const left = (await t.db.query<{ public_id: string }>("SELECT public_id FROM payment_requests WHERE wallet_id = $1 ORDER BY id", [shop.wallet])).rows;
    expect(left.map((r) => r.public_id)).toEqual([recent.id, fresh.id, paid.id]);
    // Its movement was not aged with it: the paid request gets its times back.
    await t.db.query("UPDATE payment_requests SET created_at = $2, expires_at = $3, paid_at = $4 WHERE public_id = $1", [
      paid.id,
      paidTimes.created_at,
      paidTimes.expires_at,
      paidTimes.paid_at,
    ]);
    // Expired an hour ago: a late payer is still told so.
    expect((await customer.api.call("getPaymentRequest", { params: { requestId: recent.id } })).json.closedMessage).toBe(SM.paymentRequestExpired);
    // Swept: a payer holding its code is told it does not exist, and nothing moves.
    const before = await walletBalances(t.db, customer.wallet);
    const r = await pay(customer, shop.wallet, lapsed.id, "1.00");
    expect(r.status).toBe(404);
    expect(r.json.error.msgid).toBe(SM.paymentRequestNotFound);
    expect(await walletBalances(t.db, customer.wallet)).toEqual(before);
    // The paid one still answers its payer's retry and its till.
    expect((await shop.api.call("getPaymentRequest", { params: { requestId: paid.id } })).json).toMatchObject({ status: "paid" });
    expect((await shop.api.call("getPaymentRequest", { params: { requestId: fresh.id } })).json.status).toBe("open");
  });
});

describe("the memo the till asked with", () => {
  const sales = async (shop: Person) =>
    (
      await shop.api.call("getSales", {
        params: { walletId: shop.wallet },
        query: { from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString() },
      })
    ).json.items;

  it("a payment of a request carries the request's memo for the recipient, whatever the payer's app sent; its sale shows it", async () => {
    const shop = await person();
    const customer = await person("50.00");
    const req = await ask(shop, "12.50", { senderMemo: "Lunch", recipientMemo: "Table 4" });
    const body = {
      from: customer.wallet,
      to: shop.wallet,
      parts: [{ account: "main", amount: "12.50" }],
      senderMemo: "My lunch",
      recipientMemo: "Anything else",
      key: newKey(),
      requestId: req.id,
    };
    const r = await customer.api.call("transfer", { body });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    // Its retry (a lost answer) is answered with the same payment.
    expect((await customer.api.call("transfer", { body })).json.id).toBe(r.json.id);
    const { rows } = await t.db.query("SELECT sender_memo, recipient_memo FROM movements WHERE public_id = $1", [r.json.id]);
    expect(rows).toEqual([{ sender_memo: "My lunch", recipient_memo: "Table 4" }]);
    expect(await sales(shop)).toEqual([expect.objectContaining({ transactionId: r.json.id, memo: "Table 4", requestId: req.id })]);
  });

  it("a device-signed payment cannot have its memo replaced: it must carry the request's, or it is refused", async () => {
    const shopMember = await seedMember(t.db, { firstName: "MemoShop" });
    const shopWallet = await openTestLedgerWallet(t.db, ledger, shopMember.id);
    const shopApi = new Api(t.server.baseUrl, await memberToken(t.db, shopMember.id));
    const payerMember = await seedMember(t.db, { firstName: "MemoPayer" });
    const payerWallet = await openTestLedgerWallet(t.db, ledger, payerMember.id);
    await topUp(t.db, payerWallet.id, "20.00", "nant");
    const payerApi = new Api(t.server.baseUrl, await memberToken(t.db, payerMember.id));
    const req = (await shopApi.call("createPaymentRequest", { body: { walletId: shopWallet.id, amount: "4.00", recipientMemo: "Order 7" } })).json;
    const draft = { from: payerWallet.id, to: shopWallet.id, parts: [{ account: "nant" as const, amount: "4.00" }], senderMemo: "Soup" };
    const wrong = await payerApi.call("transfer", { body: { ...signTransfer(payerWallet.key, { ...draft, recipientMemo: "Soup" }), requestId: req.id } });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.msgid).toBe(SM.paymentRequestMemoMismatch);
    expect(await walletBalances(t.db, payerWallet.id)).toMatchObject({ nant: "20.00" });
    expect((await requestRow(req.id)).status).toBe("open");
    const right = await payerApi.call("transfer", { body: { ...signTransfer(payerWallet.key, { ...draft, recipientMemo: "Order 7" }), requestId: req.id } });
    expect(right.status, JSON.stringify(right.json)).toBe(200);
    expect((await t.db.query("SELECT recipient_memo FROM movements WHERE public_id = $1", [right.json.id])).rows).toEqual([{ recipient_memo: "Order 7" }]);
  });
});

describe("the Lokavaluto (Cyclos) face", () => {
  const cyclosPay = (payer: Person, shop: Person, body: Record<string, unknown>) =>
    http<{ id: string; code?: string }>(second.baseUrl, "POST", "/cyclos/api/self/payments", {
      body: { amount: "7.00", description: "Tea", subject: shop.wallet.replace(/^custodial:/, ""), ...body },
      headers: { "session-token": payer.api.token! },
    });

  it("a payment naming a request pays it: marked paid with that payment, which the till sees, and only once", async () => {
    const shop = await person();
    const customer = await person("50.00");
    const req = await ask(shop, "7.00", { recipientMemo: "Pot of tea" });
    const r = await cyclosPay(customer, shop, { paymentRequest: req.id });
    expect(r.status, r.text).toBe(201);
    const row = await requestRow(req.id);
    expect(row).toMatchObject({ status: "paid", payer_wallet_id: customer.wallet });
    expect((await t.db.query("SELECT public_id, recipient_memo FROM movements WHERE id = $1", [row.movement_id])).rows).toEqual([
      { public_id: r.json.id, recipient_memo: "Pot of tea" },
    ]);
    expect((await shop.api.call("getPaymentRequest", { params: { requestId: req.id } })).json).toMatchObject({
      status: "paid",
      payment: { transactionId: r.json.id, payerWalletId: customer.wallet },
    });
    // Paid once: a second payment naming it is refused and moves nothing.
    // (Cyclos answers 422 to whatever it refuses.)
    const again = await cyclosPay(customer, shop, { paymentRequest: req.id });
    expect([again.status, again.json]).toEqual([422, { code: "validation", message: SM.paymentRequestPaid }]);
    expect(await walletBalances(t.db, customer.wallet)).toEqual({ main: "43.00" });
    // Another amount is not this request's.
    const other = await ask(shop, "7.00");
    expect((await cyclosPay(customer, shop, { paymentRequest: other.id, amount: "6.00" })).status).toBe(422);
    expect((await requestRow(other.id)).status).toBe("open");
  });
});
