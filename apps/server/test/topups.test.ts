import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { M, SM } from "@mutua/domain";
import { openCustodialWallet, type BackendRow, type WalletStatus } from "../src/services/wallets/wallets";
import { Api, countMovements, createBackend, http, memberToken, seedMember, walletBalances, type SeededMember, type TestServer } from "./helpers";
import { setupServerTest } from "./setup";

/** Top-up orders as members make them: limits, one unpaid own order, third parties, the order page. */

let demo: TestServer;
/** Top-ups from 5.00 to 500.00 DL. */
let limited: BackendRow;
/** No limits set: the minimum is 1.00. */
let plain: BackendRow;

const BANK = { iban: "FR76 3000 6000 0112 3456 7890 189", bic: "AGRIFRPP", holder: "Association Lokal" };

const t = setupServerTest();

beforeAll(async () => {
  // The association's bank details, as setup or its owners write them; the running server reads them at once.
  await t.db.query("UPDATE association SET bank_iban = $1, bank_bic = $2, bank_holder = $3", [BANK.iban, BANK.bic, BANK.holder]);
  demo = await t.startServer({ env: { TOPUP_PROVIDER: "demo" } });
  limited = await createBackend(t.db, { kind: "custodial", symbol: "DL" });
  await t.db.query("UPDATE backends SET min_credit_amount = 500, max_credit_amount = 50000 WHERE id = $1", [limited.id]);
  plain = await createBackend(t.db, { kind: "custodial", symbol: "TC" });
});

interface Person {
  member: SeededMember;
  api: Api;
  demoApi: Api;
  wallet: string;
}

let names = 0;
async function person(
  opts: { firstName?: string; lastName?: string; backend?: BackendRow; status?: WalletStatus; creditAdmin?: boolean } = {},
): Promise<Person> {
  const member = await seedMember(t.db, {
    firstName: opts.firstName ?? `T${++names}`,
    ...(opts.lastName ? { lastName: opts.lastName } : {}),
    canValidateCredits: opts.creditAdmin ?? false,
  });
  const wallet = await openCustodialWallet(t.db, opts.backend ?? plain, member.id, opts.status ?? "active");
  const token = await memberToken(t.db, member.id);
  return { member, wallet, api: new Api(t.server.baseUrl, token), demoApi: new Api(demo.baseUrl, token) };
}

const create = (p: Person, walletId: string, amount: string, api = p.api) => api.call("createTopUp", { body: { walletId, amount } });
const orderState = async (id: string) => (await t.db.query<{ state: string }>("SELECT state FROM topup_orders WHERE public_id = $1", [id])).rows[0]!.state;
const pathOf = (orderUrl: string) => new URL(orderUrl).pathname;

/** The demo checkout's button as a browser presses it: a form post, redirects not followed. */
async function pressPay(base: string, orderPath: string) {
  const res = await fetch(`${base}${orderPath}/demo-pay`, {
    method: "POST",
    body: "",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    redirect: "manual",
  });
  await res.text();
  return res;
}

describe("top-up amount", () => {
  it("refuses amounts under the backend's minimum and over its maximum with the spec's messages", async () => {
    const alice = await person({ backend: limited });
    const low = await create(alice, alice.wallet, "4.99");
    expect(low.status).toBe(400);
    expect(low.json.error).toMatchObject({
      code: "validation_failed",
      message: "The minimum top up amount must be equal or greater than 5.00 DL",
      msgid: M.topUpMin,
      values: { amount: "5.00 DL" },
    });
    const high = await create(alice, alice.wallet, "500.01");
    expect(high.status).toBe(400);
    expect(high.json.error.message).toBe("The maximum top up amount must be equal or less than 500.00 DL");
    expect(high.json.error.values).toEqual({ amount: "500.00 DL" });
    expect((await create(alice, alice.wallet, "500.00")).status).toBe(200);
  });

  it("takes 1.00 as the minimum when the backend sets none, and has no maximum but the safe one", async () => {
    const bob = await person();
    const low = await create(bob, bob.wallet, "0.99");
    expect(low.status).toBe(400);
    expect(low.json.error.message).toBe("The minimum top up amount must be equal or greater than 1.00 TC");
    expect((await create(bob, bob.wallet, "0.00")).json.error.msgid).toBe(M.topUpMin);
    expect((await create(bob, bob.wallet, "1.00")).status).toBe(200);
  });

  it("refuses malformed amounts at the contract (400)", async () => {
    const bob = await person();
    for (const amount of ["1", "1.001", "-5.00", "1e3"]) expect((await create(bob, bob.wallet, amount)).status, amount).toBe(400);
  });

  it("refuses wallets that cannot be topped up: inactive (409), top-ups off (403), unknown or discarded (404)", async () => {
    const pending = await person({ status: "pending" });
    expect((await create(pending, pending.wallet, "10.00")).json.error).toMatchObject({ code: "inactive_account", message: M.targetInactive });
    const off = await person();
    await t.db.query("UPDATE wallets SET topup_allowed = false WHERE id = $1", [off.wallet]);
    const r = await create(off, off.wallet, "10.00");
    expect(r.status).toBe(403);
    expect(r.json.error.message).toBe(SM.topUpNotAllowed);
    expect((await create(off, "custodial:nope", "10.00")).status).toBe(404);
    const discarded = await person({ status: "discarded" });
    expect((await create(discarded, discarded.wallet, "10.00")).status).toBe(404);
    // A system wallet is no member's account.
    const { rows } = await t.db.query<{ id: string }>("SELECT id FROM wallets WHERE backend_id = $1 AND role = 'safe'", [plain.id]);
    expect((await create(off, rows[0]!.id, "10.00")).status).toBe(404);
  });
});

describe("one unpaid top-up of one's own", () => {
  it("refuses a second unpaid own top-up until the first is paid or deleted", async () => {
    const alice = await person();
    const first = await create(alice, alice.wallet, "10.00");
    expect(first.status).toBe(200);
    expect(first.json.order_url).toBe(`${t.server.settings.publicUrl}/orders/${first.json.id}`);
    expect(first.json.id).toMatch(/^to_[0-9a-f]{32}$/);
    const second = await create(alice, alice.wallet, "20.00");
    expect(second.status).toBe(409);
    expect(second.json.error).toMatchObject({
      code: "topup_pending",
      message: "You already have a pending top-up. Please either pay or delete it before proceeding",
    });
    // A credit administrator may still top up Alice's account meanwhile.
    const bob = await person({ creditAdmin: true });
    expect((await create(bob, alice.wallet, "7.00")).status).toBe(200);
    expect((await alice.api.call("cancelTopUp", { body: { id: first.json.id } })).status).toBe(200);
    expect((await create(alice, alice.wallet, "20.00")).status).toBe(200);
  });

  it("lets exactly one of five simultaneous own requests through", async () => {
    const alice = await person();
    const all = await Promise.all(Array.from({ length: 5 }, (_, i) => create(alice, alice.wallet, `${10 + i}.00`)));
    expect(all.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const { rows } = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM topup_orders WHERE wallet_id = $1", [alice.wallet]);
    expect(rows[0]!.n).toBe(1);
  });

  it("allows a new one once the previous is paid (it then waits for validation)", async () => {
    const alice = await person();
    const first = await create(alice, alice.wallet, "10.00", alice.demoApi);
    expect((await pressPay(demo.baseUrl, pathOf(first.json.order_url))).status).toBe(303);
    expect((await create(alice, alice.wallet, "11.00")).status).toBe(200);
  });
});

describe("top-up orders on other members' wallets are refused, and open orders are capped", () => {
  const openOrders = async (walletId: string) =>
    (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM topup_orders WHERE wallet_id = $1", [walletId])).rows[0]!.n;

  it("a member cannot open orders on someone else's wallet, nor pay them on the demo checkout: the wallet does not exist for them", async () => {
    const alice = await person();
    const mallory = await person();
    for (const api of [mallory.api, mallory.demoApi]) {
      const r = await create(mallory, alice.wallet, "10.00", api);
      expect(r.status).toBe(404);
      expect(r.json.error.code).toBe("not_found");
    }
    // The same answer as for a wallet that does not exist, whatever its state.
    await t.db.query("UPDATE wallets SET topup_allowed = false WHERE id = $1", [alice.wallet]);
    expect((await create(mallory, alice.wallet, "10.00")).status).toBe(404);
    expect(await openOrders(alice.wallet)).toBe(0);
  });

  it("a wallet has at most 5 open orders and a requester at most 10, however they are asked for", async () => {
    const staff = await person({ creditAdmin: true });
    const alice = await person();
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => create(staff, alice.wallet, "10.00")));
    expect(outcomes.filter((r) => r.status === 200)).toHaveLength(5);
    for (const r of outcomes.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.json.error.message).toBe(SM.topUpTooManyOpen);
    }
    expect(await openOrders(alice.wallet)).toBe(5);
    // The owner's own order counts too: the wallet is full.
    expect((await create(alice, alice.wallet, "10.00")).status).toBe(409);
    // Across wallets, the requester's budget: 5 more, then no more.
    const others = await Promise.all(Array.from({ length: 3 }, () => person()));
    const more = [];
    for (const o of others) for (let i = 0; i < 2; i++) more.push((await create(staff, o.wallet, "10.00")).status);
    expect(more).toEqual([200, 200, 200, 200, 200, 409]);
    // A deleted order frees its place.
    const one = (await staff.api.call("getPendingTopUps", { query: { walletId: alice.wallet } })).json[0]!;
    expect((await staff.api.call("cancelTopUp", { body: { id: one.id } })).status).toBe(200);
    expect((await create(staff, others[2]!.wallet, "10.00")).status).toBe(200);
  });
});

describe("pending top-ups and deleting them", () => {
  it("shows the owner a third party's top-up with the requester's name, and the requester only their own", async () => {
    const alice = await person({ firstName: "Alice", lastName: "Owner" });
    // Only the association's credit administrators open orders on other members' wallets.
    const bob = await person({ firstName: "Bob", lastName: "Giver", creditAdmin: true });
    const own = await create(alice, alice.wallet, "10.00");
    const gift = await create(bob, alice.wallet, "15.50");
    const list = await alice.api.call("getPendingTopUps", { query: { walletId: alice.wallet } });
    expect(list.status).toBe(200);
    expect(list.json).toHaveLength(2);
    const fromBob = list.json.find((o) => o.id === gift.json.id)!;
    expect(fromBob).toMatchObject({
      walletId: alice.wallet,
      amount: "15.50",
      currency: "TC",
      state: "unpaid",
      paid: false,
      requester: { id: Number(bob.member.id), name: "Bob Giver" },
      order_url: gift.json.order_url,
      isMine: false,
      canCancel: false,
    });
    expect(fromBob.reference).toMatch(/^MU-[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    expect(list.json.find((o) => o.id === own.json.id)).toMatchObject({ isMine: true, canCancel: true, requester: { name: "Alice Owner" } });
    // Bob sees what he asked for on Alice's wallet, not Alice's own order.
    const bobs = await bob.api.call("getPendingTopUps", { query: { walletId: alice.wallet } });
    expect(bobs.json.map((o) => o.id)).toEqual([gift.json.id]);
    expect(bobs.json[0]).toMatchObject({ isMine: true, canCancel: true });
    // Anyone else: as if the wallet did not exist.
    const mallory = await person();
    expect((await mallory.api.call("getPendingTopUps", { query: { walletId: alice.wallet } })).status).toBe(404);
    expect((await mallory.api.call("getPendingTopUps", { query: { walletId: "custodial:nope" } })).status).toBe(404);
  });

  it("lets only the requester delete a top-up, only while unpaid, and repeating it is harmless", async () => {
    const alice = await person();
    const bob = await person({ creditAdmin: true });
    const mallory = await person();
    const gift = await create(bob, alice.wallet, "15.00");
    const id = gift.json.id;
    const byOwner = await alice.api.call("cancelTopUp", { body: { id } });
    expect(byOwner.status).toBe(403);
    expect(byOwner.json.error.code).toBe("forbidden");
    expect((await mallory.api.call("cancelTopUp", { body: { id } })).status).toBe(404);
    expect((await mallory.api.call("cancelTopUp", { body: { id: "to_unknown" } })).status).toBe(404);
    expect(await orderState(id)).toBe("unpaid");
    const r = await bob.api.call("cancelTopUp", { body: { id } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ id, state: "canceled" });
    expect((await bob.api.call("cancelTopUp", { body: { id } })).json).toEqual({ id, state: "canceled" });
    expect((await alice.api.call("getPendingTopUps", { query: { walletId: alice.wallet } })).json).toEqual([]);

    const paid = await create(alice, alice.wallet, "9.00", alice.demoApi);
    await pressPay(demo.baseUrl, pathOf(paid.json.order_url));
    const late = await alice.api.call("cancelTopUp", { body: { id: paid.json.id } });
    expect(late.status).toBe(409);
    expect(late.json.error).toMatchObject({ code: "state_conflict", message: SM.requestAlreadyHandled });
    expect(await orderState(paid.json.id)).toBe("paid");
    const shown = await alice.api.call("getPendingTopUps", { query: { walletId: alice.wallet } });
    expect(shown.json).toEqual([expect.objectContaining({ id: paid.json.id, state: "paid", paid: true, canCancel: false })]);
  });
});

describe("the order page", () => {
  it("shows amount, reference and the association's bank details for a transfer, with every value escaped", async () => {
    const hostile = await person({ firstName: `<script>alert("x")</script>`, lastName: `O'Neil & <b>Co</b>` });
    const order = await create(hostile, hostile.wallet, "12.34");
    const page = await http(t.server.baseUrl, "GET", pathOf(order.json.order_url));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const { rows } = await t.db.query<{ reference: string }>("SELECT reference FROM topup_orders WHERE public_id = $1", [order.json.id]);
    expect(page.text).toContain("12.34 TC");
    expect(page.text).toContain(rows[0]!.reference);
    expect(page.text).toContain(BANK.iban);
    expect(page.text).toContain(BANK.bic);
    expect(page.text).toContain(BANK.holder);
    expect(page.text).toContain("Pay by bank transfer");
    expect(page.text).not.toContain("<script>");
    expect(page.text).not.toContain("<b>Co</b>");
    expect(page.text).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(page.text).toContain("O&#39;Neil &amp; &lt;b&gt;Co&lt;/b&gt;");
    expect(page.text).not.toContain("Pay (demo)");
  });

  it("is written in the language of the member who made the order, else the association's; the browser's decides only when neither is known", async () => {
    const lea = await person({ firstName: "Léa", lastName: "Roux" });
    await t.db.query("UPDATE members SET language = 'fr-FR' WHERE id = $1", [lea.member.id]);
    const english = { "accept-language": "en-US,en;q=0.9" };
    const own = await create(lea, lea.wallet, "12.34");
    const page = await http(t.server.baseUrl, "GET", pathOf(own.json.order_url), { headers: english });
    expect(page.status).toBe(200);
    const { rows } = await t.db.query<{ reference: string }>("SELECT reference FROM topup_orders WHERE public_id = $1", [own.json.id]);
    for (const text of [
      '<html lang="fr-FR">',
      "<title>Rechargement de 12,34 TC</title>",
      "<h1>Rechargement du compte de Léa Roux — ",
      '<p class="amount">12,34 TC</p>',
      "<tr><th>Monnaie</th><td>",
      `<tr><th>Référence</th><td><code>${rows[0]!.reference}</code></td></tr>`,
      '<p class="state">En attente de votre paiement.</p>',
      "<h2>Payer par virement</h2>",
      "<p>Virez <strong>12,34</strong> (en monnaie nationale) sur le compte de l'association ci-dessous, avec la référence exactement comme indiquée : c'est elle qui relie le paiement à cette commande.</p>",
      `<tr><th>Titulaire du compte</th><td><code>${BANK.holder}</code></td></tr>`,
      "<p>Votre compte est crédité une fois que l&#39;association a reçu le virement et validé la commande.</p>",
    ])
      expect(page.text).toContain(text);
    expect(page.text).not.toMatch(/Top-up|Waiting|transfer/);

    // The test checkout, and what it says once pressed.
    await lea.api.call("cancelTopUp", { body: { id: own.json.id } });
    const demoOrder = await create(lea, lea.wallet, "5.00", lea.demoApi);
    const demoPage = (await http(demo.baseUrl, "GET", pathOf(demoOrder.json.order_url), { headers: english })).text;
    expect(demoPage).toContain("<h2>Paiement de test — aucun argent réel</h2>");
    expect(demoPage).toContain('<p class="warn">Ce serveur est une démonstration. Le bouton marque la commande comme payée, sans aucun paiement.</p>');
    expect(demoPage).toContain('<button type="submit">Payer (démo)</button>');
    expect((await pressPay(demo.baseUrl, pathOf(demoOrder.json.order_url))).status).toBe(303);
    expect((await http(demo.baseUrl, "GET", pathOf(demoOrder.json.order_url))).text).toContain(
      '<p class="state">Payé. L&#39;association créditera votre compte une fois le paiement validé.</p>',
    );

    // Made for her by an administrator who never said their language: the association's, English here, whatever the browser.
    const staff = await person({ creditAdmin: true });
    const gift = await create(staff, lea.wallet, "7.50");
    const giftPage = (await http(t.server.baseUrl, "GET", pathOf(gift.json.order_url), { headers: { "accept-language": "fr-FR" } })).text;
    expect(giftPage).toContain('<html lang="en-US">');
    expect(giftPage).toContain("<h1>Top-up of Léa Roux&#39;s account — ");
    expect(giftPage).toContain('<p class="state">Waiting for your payment.</p>');

    // An association whose language the server has no words for: the browser's, else English.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-test-orders-"));
    try {
      const file = path.join(dir, "config.json");
      fs.writeFileSync(file, JSON.stringify({ locales: { availableLanguages: { "en-US": {}, "de-DE": {} }, defaultLanguage: "de-DE" } }));
      const german = await t.startServer({ env: { APP_CONFIG: file } });
      const langOf = async (headers: Record<string, string>) =>
        /<html lang="([^"]+)">/.exec((await http(german.baseUrl, "GET", pathOf(gift.json.order_url), { headers })).text)?.[1];
      expect(await langOf({ "accept-language": "de-DE, fr-CH;q=0.8, en;q=0.5" })).toBe("fr-FR");
      expect(await langOf({ "accept-language": "de-DE" })).toBe("en-US");
      expect(await langOf({})).toBe("en-US");
      // Hers is known: the browser is not asked.
      expect(/<html lang="([^"]+)">/.exec((await http(german.baseUrl, "GET", pathOf(demoOrder.json.order_url), { headers: english })).text)?.[1]).toBe("fr-FR");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("answers 404 for an unknown order", async () => {
    const r = await http(t.server.baseUrl, "GET", "/orders/to_0000");
    expect(r.status).toBe(404);
    expect(r.text).toContain("Order not found");
  });

  it("refuses the demo payment on a transfer server, and for a transfer order", async () => {
    const alice = await person();
    const order = await create(alice, alice.wallet, "10.00");
    expect((await pressPay(t.server.baseUrl, pathOf(order.json.order_url))).status).toBe(404);
    // Nor does a demo server pay an order made for a bank transfer.
    expect((await pressPay(demo.baseUrl, pathOf(order.json.order_url))).status).toBe(404);
    expect(await orderState(order.json.id)).toBe("unpaid");
  });

  it("pays a demo order with the test checkout's button, moving no money until an administrator validates it", async () => {
    const alice = await person();
    const order = await create(alice, alice.wallet, "25.00", alice.demoApi);
    const before = await countMovements(t.db);
    const page = await http(demo.baseUrl, "GET", pathOf(order.json.order_url));
    expect(page.text).toContain("Test checkout — no real money");
    expect(page.text).toContain(`<form method="post" action="/orders/${order.json.id}/demo-pay">`);
    expect(page.text).toContain("Pay (demo)");
    const r = await pressPay(demo.baseUrl, `/orders/${order.json.id}`);
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe(`/orders/${order.json.id}`);
    expect(await orderState(order.json.id)).toBe("paid");
    const after = await http(demo.baseUrl, "GET", pathOf(order.json.order_url));
    expect(after.text).toContain("Paid. The association will credit your account");
    expect(after.text).not.toContain("Pay (demo)");
    // Pressing again (back button) changes nothing.
    expect((await pressPay(demo.baseUrl, `/orders/${order.json.id}`)).status).toBe(303);
    expect(await countMovements(t.db)).toBe(before);
    expect(await walletBalances(t.db, alice.wallet)).toEqual({ main: "0.00" });
    // A deleted order cannot be paid.
    const bob = await person();
    const gone = await create(bob, bob.wallet, "5.00", bob.demoApi);
    await bob.api.call("cancelTopUp", { body: { id: gone.json.id } });
    expect((await pressPay(demo.baseUrl, `/orders/${gone.json.id}`)).status).toBe(409);
    expect(await orderState(gone.json.id)).toBe("canceled");
  });
});
