import { beforeAll, describe, expect, it } from "vitest";
import { LIMITS, M, SM, parseApiAmount } from "@mutua/domain";
import { openCustodialWallet, type BackendRow } from "../src/services/wallets/wallets";
import { Api, createBackend, memberToken, newKey, seedMember, topUp } from "./helpers";
import { setupServerTest } from "./setup";

/**
 * Tills. Their sales: the payments a wallet received in a range, with their count and
 * total over the whole range, which must be the ledger's own figures for it. Their cashiers: a
 * wallet's owner invites another login by e-mail address to run its till — take payments into it,
 * see who paid and the sales — and nothing else of it, once they accepted; naming an address tells
 * the owner nothing of who holds it. Every step is audited. (The authorization matrix checks the
 * cashier, a pending and a declined invitee against every route of the contract.)
 */

const t = setupServerTest();
let custodial: BackendRow;

beforeAll(async () => {
  custodial = await createBackend(t.db, { kind: "custodial" });
});

let names = 0;
async function person(opts: { balance?: string; wallet?: boolean } = {}) {
  // A name no date or id can contain ("T15" is in every timestamp of three in the afternoon).
  const firstName = `Tillmember${String.fromCharCode(97 + (names % 26))}${++names}`;
  const member = await seedMember(t.db, { firstName });
  const wallet = opts.wallet === false ? "" : await openCustodialWallet(t.db, custodial, member.id, "active");
  if (opts.balance) await topUp(t.db, wallet, opts.balance);
  return { member, firstName, wallet, api: new Api(t.server.baseUrl, await memberToken(t.db, member.id)) };
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
  const { rows } = await t.db.query<{ sum: string | null }>(
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
    await topUp(t.db, shop.wallet, "7.00");
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
      t.db
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

  it("tells the till who paid when the payer's name looks like another member's: when each joined, nothing more", async () => {
    const shop = await person();
    const named = async (firstName: string, lastName: string, joined: string) => {
      const member = await seedMember(t.db, { firstName, lastName });
      await t.db.query("UPDATE members SET created_at = $2 WHERE id = $1", [member.id, joined]);
      const wallet = await openCustodialWallet(t.db, custodial, member.id, "active");
      await topUp(t.db, wallet, "10.00");
      return { member, firstName, wallet, api: new Api(t.server.baseUrl, await memberToken(t.db, member.id)) };
    };
    const payer = await named("Tilly", "Lookalike", "2023-11-15T12:00:00Z");
    await named("TILLY ", "lookalike", "2024-06-01T12:00:00Z");
    const request = (await shop.api.call("createPaymentRequest", { body: { walletId: shop.wallet, amount: "2.00" } })).json;
    await pay(payer, shop.wallet, "2.00", { requestId: request.id });
    const sales = await shop.api.call("getSales", { params: { walletId: shop.wallet }, query: around() });
    expect(sales.json.items.map((i) => [i.payerName, i.payerHint])).toEqual([["Tilly Lookalike", { memberSince: "2023-11" }]]);
    const paid = await shop.api.call("getPaymentRequest", { params: { requestId: request.id } });
    expect(paid.json.payment).toMatchObject({ payerName: "Tilly Lookalike", payerHint: { memberSince: "2023-11" } });
  });
});

const grant = (owner: Person, email: string, wallet = owner.wallet) => owner.api.call("grantCashier", { params: { walletId: wallet }, body: { email } });
const auditOf = async (wallet: string) =>
  (await t.db.query("SELECT action, member_id, details FROM audit_log WHERE subject = $1 ORDER BY id", [wallet])).rows as {
    action: string;
    member_id: bigint;
    details: { cashier?: number; name?: string; email?: string };
  }[];
const invitationsOf = async (who: Person) => (await who.api.call("listCashierInvitations")).json as { id: string; walletId: string }[];
const answer = (who: Person, how: "acceptCashierInvitation" | "declineCashierInvitation", invitationId: string) =>
  who.api.call(how, { params: { invitationId } });
const range = () => ({ from: new Date(Date.now() - hour).toISOString(), to: new Date(Date.now() + hour).toISOString() });

/** What `who` can do at the shop's till: nothing, for anybody but its owner and its cashiers (404, as if it did not exist). */
async function expectNoTill(who: Person, shop: Person) {
  expect((await who.api.call("listTills")).json).toEqual([]);
  expect((await who.api.call("createPaymentRequest", { body: { walletId: shop.wallet, amount: "1.00" } })).status).toBe(404);
  expect((await who.api.call("getSales", { params: { walletId: shop.wallet }, query: range() })).status).toBe(404);
  expect((await who.api.call("getBalance", { params: { walletId: shop.wallet } })).status).toBe(404);
}

describe("cashiers", () => {
  it("the owner invites a cashier by e-mail, who is told, accepts and then runs the till: asks, sees who paid, sees the sales, cancels; each step audited", async () => {
    const shop = await person();
    const clerk = await person({ wallet: false });
    const customer = await person({ balance: "50.00" });
    const invited = await grant(shop, ` ${clerk.member.email.toUpperCase()} `);
    expect(invited.status, JSON.stringify(invited.json)).toBe(200);
    expect(invited.json).toEqual({
      status: "pending",
      email: clerk.member.email,
      memberId: null,
      name: null,
      invitationId: expect.any(String),
      since: expect.any(String),
      expiresAt: expect.any(String),
    });
    expect(Date.parse(invited.json.expiresAt!) - Date.parse(invited.json.since)).toBe(LIMITS.cashierInvitationDays * 86_400_000);
    // Naming them again changes nothing, and is not audited twice.
    expect((await grant(shop, clerk.member.email)).json).toEqual(invited.json);
    expect((await shop.api.call("listCashiers", { params: { walletId: shop.wallet } })).json).toEqual([invited.json]);

    // The clerk hears of it, named after the shop; until they accept, the till is not theirs.
    const told = (await clerk.api.call("listNotifications")).json;
    expect(told).toMatchObject({
      unread: 1,
      items: [{ kind: "cashier_invited", walletId: shop.wallet, counterparty: expect.stringContaining(shop.firstName) }],
    });
    await expectNoTill(clerk, shop);
    const invitations = await invitationsOf(clerk);
    expect(invitations).toEqual([
      {
        id: invited.json.invitationId,
        walletId: shop.wallet,
        shopName: expect.stringContaining(shop.firstName),
        currency: "TC",
        currencyName: expect.any(String),
        since: invited.json.since,
        expiresAt: invited.json.expiresAt,
      },
    ]);
    // Nobody else answers it for them.
    expect((await answer(customer, "acceptCashierInvitation", invitations[0]!.id)).status).toBe(404);
    const accepted = await answer(clerk, "acceptCashierInvitation", invitations[0]!.id);
    expect(accepted.status, JSON.stringify(accepted.json)).toBe(200);
    const till = { walletId: shop.wallet, shopName: expect.stringContaining(shop.firstName), currency: "TC", currencyName: expect.any(String), frozen: false };
    expect(accepted.json).toEqual(till);
    expect(await invitationsOf(clerk)).toEqual([]);
    expect((await answer(clerk, "acceptCashierInvitation", invitations[0]!.id)).json.error.msgid).toBe(SM.cashierInvitationGone);
    // Accepted: the owner now sees who runs the till.
    const cashiers = (await shop.api.call("listCashiers", { params: { walletId: shop.wallet } })).json;
    expect(cashiers).toEqual([
      {
        status: "accepted",
        email: clerk.member.email,
        memberId: Number(clerk.member.id),
        name: expect.stringContaining(clerk.firstName),
        invitationId: null,
        since: expect.any(String),
        expiresAt: null,
      },
    ]);
    expect((await grant(shop, clerk.member.email)).json).toEqual(cashiers[0]);
    expect((await clerk.api.call("listTills")).json).toEqual([till]);

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
    const sales = await clerk.api.call("getSales", { params: { walletId: shop.wallet }, query: range() });
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
    await expectNoTill(clerk, shop);
    expect((await clerk.api.call("getPaymentRequest", { params: { requestId: asked.json.id } })).json).toMatchObject({ isMine: false, payment: null });
    // Revoking again changes nothing.
    expect((await shop.api.call("revokeCashier", { params: { walletId: shop.wallet, memberId: Number(clerk.member.id) } })).status).toBe(200);

    expect((await auditOf(shop.wallet)).map((a) => [a.action, a.member_id, a.details.cashier ?? a.details.email])).toEqual([
      ["cashier_invited", shop.member.id, clerk.member.email],
      ["cashier_accepted", clerk.member.id, Number(clerk.member.id)],
      ["cashier_revoked", shop.member.id, Number(clerk.member.id)],
    ]);
  });

  it("a frozen till is said to be frozen to its owner and its cashiers, and opens no request for either until it is unfrozen", async () => {
    const shop = await person();
    const clerk = await person({ wallet: false });
    await grant(shop, clerk.member.email);
    expect((await answer(clerk, "acceptCashierInvitation", (await invitationsOf(clerk))[0]!.id)).status).toBe(200);
    const freeze = (reason: string | null) =>
      t.db.query("UPDATE wallets SET frozen_at = CASE WHEN $2::text IS NULL THEN NULL ELSE now() END, frozen_reason = $2 WHERE id = $1", [shop.wallet, reason]);
    const ask = (who: Person) => who.api.call("createPaymentRequest", { body: { walletId: shop.wallet, amount: "3.00" } });
    await freeze("Checked by the board");
    expect((await clerk.api.call("listTills")).json).toMatchObject([{ walletId: shop.wallet, frozen: true }]);
    for (const who of [shop, clerk]) {
      const r = await ask(who);
      expect([r.status, r.json.error?.msgid]).toEqual([409, SM.tillFrozen]);
    }
    expect((await t.db.query("SELECT 1 FROM payment_requests WHERE wallet_id = $1", [shop.wallet])).rowCount).toBe(0);
    await freeze(null);
    expect((await clerk.api.call("listTills")).json).toMatchObject([{ walletId: shop.wallet, frozen: false }]);
    expect((await ask(clerk)).status).toBe(200);
  });

  it("answers an address nobody holds exactly as a member's, even one the directory hides: same status and shape, no name; only the member is told", async () => {
    const shop = await person();
    // A member with no wallet: the directory never shows them to the shop.
    const hidden = await person({ wallet: false });
    const nobody = `nobody-${hidden.firstName.toLowerCase()}@example.org`;
    const known = await grant(shop, hidden.member.email);
    const unknown = await grant(shop, nobody);
    expect([known.status, unknown.status]).toEqual([200, 200]);
    const shape = (j: object & { invitationId: unknown; since: unknown; expiresAt: unknown }) => ({
      ...j,
      email: "x",
      invitationId: typeof j.invitationId,
      since: typeof j.since,
      expiresAt: typeof j.expiresAt,
    });
    expect(shape(known.json)).toEqual(shape(unknown.json));
    expect(known.json).toMatchObject({ status: "pending", memberId: null, name: null });
    expect(JSON.stringify(known.json)).not.toContain(hidden.firstName);
    const listed = (await shop.api.call("listCashiers", { params: { walletId: shop.wallet } })).json;
    expect(listed.map((c) => [c.status, c.email, c.name, c.memberId])).toEqual([
      ["pending", hidden.member.email, null, null],
      ["pending", nobody, null, null],
    ]);
    expect(JSON.stringify(listed)).not.toContain(hidden.firstName);
    // The member holding the address is told; nobody else is.
    expect((await t.db.query("SELECT member_id FROM member_events WHERE kind = 'cashier_invited' AND wallet_id = $1", [shop.wallet])).rows).toEqual([
      { member_id: hidden.member.id },
    ]);
  });

  it("gives a pending, declined, withdrawn or lapsed invitee no right at all; each is theirs to answer once", async () => {
    const shop = await person();
    const [pending, declining, withdrawn, lapsed] = [await person(), await person(), await person(), await person()];
    for (const p of [pending, declining, withdrawn, lapsed]) expect((await grant(shop, p.member.email)).status).toBe(200);
    const idOf = async (p: Person) => (await invitationsOf(p))[0]!.id;

    expect((await answer(declining, "declineCashierInvitation", await idOf(declining))).status).toBe(200);
    const cancelled = await idOf(withdrawn);
    expect((await shop.api.call("cancelCashierInvitation", { params: { walletId: shop.wallet, invitationId: cancelled } })).status).toBe(200);
    const expired = await idOf(lapsed);
    await t.db.query("UPDATE cashier_invitations SET expires_at = now() - interval '1 second' WHERE id = $1", [expired]);

    expect((await shop.api.call("listCashiers", { params: { walletId: shop.wallet } })).json.map((c) => [c.email, c.status])).toEqual([
      [pending.member.email, "pending"],
      [declining.member.email, "declined"],
    ]);
    for (const p of [pending, declining, withdrawn, lapsed]) await expectNoTill(p, shop);
    for (const p of [declining, withdrawn, lapsed]) expect(await invitationsOf(p)).toEqual([]);
    for (const [p, id] of [
      [withdrawn, cancelled],
      [lapsed, expired],
    ] as const) {
      const late = await answer(p, "acceptCashierInvitation", id);
      expect([late.status, late.json.error.msgid]).toEqual([404, SM.cashierInvitationGone]);
    }
    const declined = (await shop.api.call("listCashiers", { params: { walletId: shop.wallet } })).json[1]!;
    // Declined is final: naming the address again does not ask again, until the owner removes it.
    expect((await grant(shop, declining.member.email)).json).toEqual(declined);
    expect((await shop.api.call("cancelCashierInvitation", { params: { walletId: shop.wallet, invitationId: declined.invitationId! } })).status).toBe(200);
    expect((await grant(shop, declining.member.email)).json).toMatchObject({ status: "pending" });
    // A lapsed invitation is named anew.
    expect((await grant(shop, lapsed.member.email)).json.invitationId).not.toBe(expired);

    expect((await auditOf(shop.wallet)).map((a) => a.action)).toEqual([
      "cashier_invited",
      "cashier_invited",
      "cashier_invited",
      "cashier_invited",
      "cashier_declined",
      "cashier_invitation_cancelled",
      "cashier_invitation_cancelled",
      "cashier_invited",
      "cashier_invited",
    ]);
  });

  it("counts each naming in the member's directory search budget, shared with searches: past it, 429 and nothing written", async () => {
    const shop = await person();
    const bucket = `search:member:${shop.member.id}`;
    const hits = async () => (await t.db.query<{ hits: number }>("SELECT hits FROM rate_limits WHERE bucket = $1", [bucket])).rows[0]?.hits;
    expect((await grant(shop, "first-try@example.org")).status).toBe(200);
    expect(await hits()).toBe(1);
    expect((await shop.api.call("searchRecipients", { query: { q: "someone" } })).status).toBe(200);
    expect(await hits()).toBe(2);
    // The rest of the budget spent (by searches or namings alike).
    await t.db.query("UPDATE rate_limits SET hits = $2 WHERE bucket = $1", [bucket, t.server.settings.limits.searchPerMember.max]);
    const over = await grant(shop, "one-more@example.org");
    expect(over.status).toBe(429);
    expect(over.json.error.msgid).toBe(SM.rateLimited);
    expect((await shop.api.call("searchRecipients", { query: { q: "someone" } })).status).toBe(429);
    expect((await t.db.query("SELECT email FROM cashier_invitations WHERE wallet_id = $1", [shop.wallet])).rows).toEqual([{ email: "first-try@example.org" }]);
  });

  it("refuses oneself, a malformed address, a cashier too many (invitations count), and anybody but the owner, writing nothing", async () => {
    const shop = await person();
    const stranger = await person();
    const self = await grant(shop, shop.member.email);
    expect(self.status).toBe(400);
    expect(self.json.error.fields?.email?.msgid).toBe(SM.cashierSelf);
    const malformed = await grant(shop, "not an address");
    expect(malformed.status).toBe(400);
    expect(malformed.json.error.fields?.email?.msgid).toBe(M.invalidEmail);
    expect((await stranger.api.call("grantCashier", { params: { walletId: shop.wallet }, body: { email: stranger.member.email } })).status).toBe(404);
    expect((await stranger.api.call("listCashiers", { params: { walletId: shop.wallet } })).status).toBe(404);
    expect((await stranger.api.call("revokeCashier", { params: { walletId: shop.wallet, memberId: 1 } })).status).toBe(404);
    expect(await auditOf(shop.wallet)).toEqual([]);

    // One accepted cashier and pending invitations up to the cap, named at once from many tabs.
    const clerk = await person({ wallet: false });
    await grant(shop, clerk.member.email);
    expect((await answer(clerk, "acceptCashierInvitation", (await invitationsOf(clerk))[0]!.id)).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: LIMITS.cashiersPerWallet - 1 }, (_, i) => grant(shop, `staff-${i}@example.org`)));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const invitation = answers[0]!.json.invitationId!;
    const over = await grant(shop, "staff-extra@example.org");
    expect(over.status).toBe(409);
    expect(over.json.error.msgid).toBe(SM.cashierTooMany);
    expect((await stranger.api.call("cancelCashierInvitation", { params: { walletId: shop.wallet, invitationId: invitation } })).status).toBe(404);
    expect((await clerk.api.call("cancelCashierInvitation", { params: { walletId: shop.wallet, invitationId: invitation } })).status).toBe(403);
    expect((await shop.api.call("listCashiers", { params: { walletId: shop.wallet } })).json).toHaveLength(LIMITS.cashiersPerWallet);
  });
});
