import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { formatCents, type Profile } from "@mutua/domain";
import { MutuaClient, RefusedError } from "@mutua/client";
import { DEMO_PASSWORD, seedDemo } from "../../src/demo/seed";
import { cents, countMovements, freePort, http, Session, type TestServer } from "../helpers";
import { setupServerTest } from "../setup";
import {
  collect,
  lokapiExc,
  NodeLokAPI,
  ODOO_TOKEN_KEY,
  reqExc,
  RestExc,
  type LokAccount,
  type LokBackend,
  type LokContact,
  type LokRecipient,
  type LokTransaction,
  type LokUserAccount,
} from "./node-lokapi";

/**
 * Lokavaluto compatibility: Monujo's own client library, the unmodified npm packages
 * @lokavaluto/lokapi and @lokavaluto/lokapi-backend-cyclos, drives our server through a member's
 * day (log in, accounts, search, favourite, pay, history, top-up, log out) and its refusals.
 * Every step is checked against what our own API (MutuaClient) says about the same data, so
 * the two views of one association can never drift apart.
 *
 * The demo association gives Alice and Bob custodial wallets with money and a history; our
 * custodial backend is what lokapi sees as a Cyclos server. Wire-level reference:
 * docs/lokavaluto.md.
 */

const t = setupServerTest({ server: false });
let server: TestServer;
/** `cyclos:<host:port>`: the key of our backend in lokapi (taken from the Cyclos URL it is given). */
let backendKey: string;
/** `<host:port>` the tests reach the server at. */
let host: string;
/** Our id of the custodial backend that lokapi sees as Cyclos. */
let custodialBackendId: string;
/** Its currency symbol, as our API shows it. */
let symbol: string;
let alice: Member;
let bob: Member;

/** A demo member as our own API knows them. */
interface Member {
  email: string;
  /** Our own typed client, signed in as this member. */
  api: MutuaClient;
  profile: Profile;
  /** The custodial wallet ("custodial:<hex>"); lokapi knows it as the Cyclos owner `<hex>`. */
  walletId: string;
}

beforeAll(async () => {
  // lokapi logs every backend it builds ("making backend …") and every failed request.
  vi.spyOn(console, "log").mockImplementation(() => {});
  await seedDemo(t.db);
  // lokapi follows the accounts' URLs, which are built from PUBLIC_URL: it names the server's real address.
  const port = await freePort();
  server = await t.startServer({ env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` } });
  host = new URL(server.baseUrl).host;
  backendKey = `cyclos:${host}`;
  alice = await member("alice@example.com");
  bob = await member("bob@example.com");
  const entry = (await alice.api.call("getAccounts")).find((a) => a.id === alice.walletId)!;
  custodialBackendId = entry.backendId;
  symbol = entry.curr;
});

afterAll(() => {
  vi.restoreAllMocks();
});

// ---------------------------------------------------------------------------------------------
// Helpers: one per concern.
// ---------------------------------------------------------------------------------------------

/** Signs a demo member in through our own API and finds their one custodial wallet. */
async function member(email: string): Promise<Member> {
  const session = new Session(server.baseUrl);
  const { profile } = await session.login(email, DEMO_PASSWORD);
  const custodial = (await session.client.call("getAccounts")).filter((a) => a.backend === "custodial");
  expect(
    custodial.map((a) => a.status),
    `${email}'s custodial wallets`,
  ).toEqual(["active"]);
  return { email, api: session.client, profile, walletId: custodial[0]!.id };
}

/** The Cyclos owner id of one of our custodial wallets: its id without the `custodial:` prefix. */
const ownerOf = (walletId: string) => walletId.replace(/^custodial:/, "");

/** 2-decimal amount arithmetic, exact (in cents). */
const plus = (a: string, b: string) => formatCents(cents(a) + cents(b));
const minus = (a: string, b: string) => formatCents(cents(a) - cents(b));

/**
 * A new lokapi instance, logged in as the member. New on purpose: an instance caches each
 * Backend object, and with it the balance, for its whole life (docs/lokavaluto.md), so a change made by
 * someone else is only seen by a new one.
 */
async function lokapiAs(m: Member): Promise<NodeLokAPI> {
  const lokapi = new NodeLokAPI(server.baseUrl, "odoo");
  await lokapi.login(m.email, DEMO_PASSWORD);
  return lokapi;
}

/** What Monujo does after a page reload: a new instance that finds the API key in its persistent store. */
function reloaded(from: NodeLokAPI): NodeLokAPI {
  const lokapi = new NodeLokAPI(server.baseUrl, "odoo");
  for (const [key, value] of from.persistentStore.map) lokapi.persistentStore.map.set(key, value);
  return lokapi;
}

/**
 * The account tree as Monujo builds it. The Cyclos plugin only supports one backend entry with
 * one user account holding one money account (it throws otherwise), so that is what our server
 * must send: our exposed custodial backend, the member's custodial wallet, its one balance.
 */
async function cyclosTree(lokapi: NodeLokAPI): Promise<{ backend: LokBackend; userAccount: LokUserAccount; account: LokAccount }> {
  const backends = Object.values((await lokapi.getBackends()) as Record<string, LokBackend>);
  expect(backends.map((b) => b.internalId)).toEqual([backendKey]);
  const backend = backends[0]!;
  const userAccounts = Object.values(backend.userAccounts);
  expect(userAccounts).toHaveLength(1);
  const userAccount = userAccounts[0]!;
  const accounts = await userAccount.getAccounts();
  expect(accounts).toHaveLength(1);
  return { backend, userAccount, account: accounts![0]! };
}

/** The balance of the member's custodial wallet, as our own API shows it. */
async function ourBalance(m: Member): Promise<string> {
  const entry = (await m.api.call("getAccounts")).find((a) => a.id === m.walletId);
  expect(entry?.bal, `${m.email}'s balance in our API`).toMatch(/^-?\d+\.\d{2}$/);
  return entry!.bal!;
}

/** The same balance, as a new lokapi instance shows it (an older one would show its cached value). */
async function lokapiBalance(m: Member): Promise<string> {
  const { account } = await cyclosTree(await lokapiAs(m));
  return account.getBalance();
}

/** Recipients lokapi finds for `value` across its backends, as Monujo's search lists them (the cap guards a paging loop). */
const search = (lokapi: NodeLokAPI, value: string) => collect<LokRecipient>(lokapi.searchRecipients(value), 200);

/** Bob, as alice's lokapi finds him. */
async function bobFor(lokapi: NodeLokAPI): Promise<LokRecipient> {
  const found = (await search(lokapi, "bob")).filter((r) => r.id === bob.profile.id);
  expect(found, "Bob in alice's search for 'bob'").toHaveLength(1);
  return found[0]!;
}

/** Member ids our own API lists as the member's favourites (an empty query lists only those). */
async function ourFavourites(m: Member): Promise<number[]> {
  const page = await m.api.call("searchRecipients", { query: { q: "", limit: 50 } });
  return page.rows.filter((r) => r.isFavorite).map((r) => r.memberId);
}

/** The pending top-up orders of the member's custodial wallet, by order URL, as our API lists them. */
const ourOrderUrls = async (m: Member) => (await m.api.call("getPendingTopUps", { query: { walletId: m.walletId } })).map((o) => o.order_url);

/** The order URLs of a lokapi account's pending top-ups (the request's own `id` getter throws: a plugin bug). */
const lokapiOrderUrls = async (account: LokAccount) => (await account.getPendingTopUp()).map((c) => c.jsonData.odoo.order_url);

/** What both a listed lokapi transaction and our TransactionView must agree on. */
const essentials = (t: LokTransaction) => ({ id: t.id, amount: t.amount, description: t.description, related: t.related });

/**
 * The member's latest transactions in our API and in lokapi, reduced to what both show. lokapi
 * names the system account (top-ups, reconversions) "Admin" and calls a positive one a top-up.
 */
async function bothHistories(lokapi: NodeLokAPI, m: Member, max = 30) {
  const ours = (await m.api.call("getTransactions", { params: { walletId: m.walletId }, query: { limit: max } })).items.map((t) => ({
    id: t.id,
    date: new Date(t.date).toISOString(),
    amount: t.amount,
    description: t.description,
    related: t.kind === "payment" ? t.related : "Admin",
    isTopUp: t.kind === "topup",
  }));
  const theirs = (await collect<LokTransaction>(lokapi.getTransactions(), max)).map((t) => ({
    id: t.id,
    date: t.date.toISOString(),
    amount: t.amount,
    description: t.description,
    related: t.related,
    isTopUp: t.isTopUp,
  }));
  return { ours, theirs };
}

// ---------------------------------------------------------------------------------------------
// A member's day, step by step. Steps share the demo database, so they run in order.
// ---------------------------------------------------------------------------------------------

describe("lokapi + Cyclos plugin against our server", () => {
  it("1. logs in and shows the member's own profile", async () => {
    const lokapi = new NodeLokAPI(server.baseUrl, "odoo");
    await lokapi.login(alice.email, DEMO_PASSWORD);
    expect(lokapi.isLogged).toBe(true);
    const me = (await lokapi.getMyContact()) as LokContact;
    expect({ id: me.id, name: me.name, email: me.email }).toEqual({ id: alice.profile.id, name: alice.profile.name, email: alice.profile.email });
    // The profile came with the login answer (prefetch): one request in all.
    expect(lokapi.requestsSince(0)).toEqual(["POST /lokavaluto_api/public/auth/authenticate → 200"]);

    // The API key is one of our sessions: our own client takes it as a bearer token.
    const ours = new MutuaClient({ baseUrl: server.baseUrl, getToken: () => lokapi.apiToken });
    expect(await ours.call("getMyContact")).toEqual(alice.profile);

    // After a reload, the profile is fetched with the stored key.
    const again = reloaded(lokapi);
    const me2 = (await again.getMyContact()) as LokContact;
    expect({ id: me2.id, name: me2.name, email: me2.email }).toEqual({ id: me.id, name: me.name, email: me.email });
    expect(again.requestsSince(0)).toEqual(["GET /lokavaluto_api/private/partner/0 → 200"]);
  });

  it("2. builds the account tree: one Cyclos backend, alice's custodial wallet and its balance", async () => {
    const lokapi = await lokapiAs(alice);
    const sent = lokapi.requests.length;
    const { backend, userAccount, account } = await cyclosTree(lokapi);
    const owner = ownerOf(alice.walletId);
    // The backends came with the login answer; only the Cyclos accounts were fetched.
    expect(lokapi.requestsSince(sent)).toEqual([`GET /cyclos/api/${owner}/accounts → 200`]);
    expect({ ownerId: userAccount.ownerId, internalId: userAccount.internalId, active: userAccount.active }).toEqual({
      ownerId: owner,
      internalId: `cyclos:${owner}@${host}`,
      active: true,
    });

    const ours = (await alice.api.call("getAccounts")).find((a) => a.id === alice.walletId)!;
    const balance = await account.getBalance();
    expect(balance).toMatch(/^-?\d+\.\d{2}$/);
    expect(balance).toBe(ours.bal);
    expect(await account.getSymbol()).toBe(ours.curr);
    expect(await userAccount.getSymbol()).toBe(ours.curr);
    // Top-up limits: numbers or 2-decimal strings, the same amounts as ours (null: no limit).
    expect(Number(backend.minCreditAmount)).toBe(Number(ours.minCreditAmount ?? 0));
    expect(ours.maxCreditAmount === null ? !backend.maxCreditAmount : Number(backend.maxCreditAmount) === Number(ours.maxCreditAmount)).toBe(true);

    // lokapi.getAccounts() flattens the same tree.
    expect(((await lokapi.getAccounts()) as LokAccount[]).map((a) => a.internalId)).toEqual([account.internalId]);

    // After a reload, the backends are fetched (POST /partner/backend_credentials) and give the same account.
    const again = reloaded(lokapi);
    const tree = await cyclosTree(again);
    expect(again.requestsSince(0)[0]).toBe("POST /lokavaluto_api/private/partner/backend_credentials → 200");
    expect(tree.account.internalId).toBe(account.internalId);
    expect(await tree.account.getBalance()).toBe(ours.bal);
  });

  it("3. finds bob with his custodial wallet, like our directory does, and never alice herself", async () => {
    const lokapi = await lokapiAs(alice);
    const found = await search(lokapi, "bob");
    const rows = found.map((r) => ({ id: r.id, name: r.name, walletId: `custodial:${r.jsonData.cyclos.owner_id}`, backendId: r.backendId }));
    expect(rows).toContainEqual({ id: bob.profile.id, name: bob.profile.name, walletId: bob.walletId, backendId: backendKey });
    expect((await bobFor(lokapi)).userAccountInternalId).toBe(`cyclos:${ownerOf(bob.walletId)}`);

    // The same wallets as our own search lists in that backend.
    const ours = await alice.api.call("searchRecipients", { query: { q: "bob", limit: 50 } });
    expect(ours.hasMore).toBe(false);
    expect(rows.map((r) => r.walletId).sort()).toEqual(
      ours.rows
        .filter((r) => r.backendId === custodialBackendId)
        .map((r) => r.walletId)
        .sort(),
    );

    // The per-backend search (Monujo's, once a currency is chosen) gives the same recipients.
    const { backend } = await cyclosTree(lokapi);
    const perBackend = await collect<LokRecipient>(backend.searchRecipients("bob"), 200);
    expect(perBackend.map((r) => r.id)).toEqual(found.map((r) => r.id));

    // Never oneself, even when the query matches.
    for (const q of ["alice", "Martin", alice.profile.name])
      expect(
        (await search(lokapi, q)).map((r) => r.id),
        q,
      ).not.toContain(alice.profile.id);
  });

  it("4. toggles bob as a favourite, and our directory shows it", async () => {
    const lokapi = await lokapiAs(alice);
    const recipient = await bobFor(lokapi);
    expect(recipient.is_favorite).toBe(false);
    expect(await ourFavourites(alice)).not.toContain(bob.profile.id);

    await recipient.toggleFavorite();
    expect(recipient.is_favorite).toBe(true);
    expect(await ourFavourites(alice)).toContain(bob.profile.id);
    // lokapi's empty search lists the favourites, flagged as such.
    expect((await search(lokapi, "")).map((r) => [r.id, r.is_favorite])).toContainEqual([bob.profile.id, true]);

    await recipient.toggleFavorite();
    expect(recipient.is_favorite).toBe(false);
    expect(await ourFavourites(alice)).not.toContain(bob.profile.id);
    expect((await search(lokapi, "")).map((r) => r.id)).not.toContain(bob.profile.id);
  });

  /** The payment of step 5, read back in step 6. */
  let payment: { id: string; memo: string } | undefined;

  it("5. pays bob 1.23 with a memo: alice's balance goes down by exactly 1.23 and bob's up, in our API", async () => {
    const before = { alice: await ourBalance(alice), bob: await ourBalance(bob) };
    const lokapi = await lokapiAs(alice);
    const recipient = await bobFor(lokapi);
    const memo = `lokapi conformance ${randomBytes(3).toString("hex")}`;

    // Preparing asks nothing of the server; executing pays (data-for-perform, then POST /self/payments).
    const planned = await recipient.prepareTransfer("1.23", memo, memo);
    expect(planned.map((p) => ({ amount: p.amount, description: p.description, related: p.related }))).toEqual([
      { amount: "1.23", description: memo, related: bob.profile.name },
    ]);
    const done: LokTransaction[] = [];
    for (const p of planned) done.push(await p.execute());

    const after = { alice: minus(before.alice, "1.23"), bob: plus(before.bob, "1.23") };
    expect({ alice: await ourBalance(alice), bob: await ourBalance(bob) }).toEqual(after);

    // lokapi's answer is the movement our API now lists first.
    const tx = done[0]!;
    const latest = (await alice.api.call("getTransactions", { params: { walletId: alice.walletId }, query: { limit: 1 } })).items[0]!;
    expect(latest).toMatchObject({ kind: "payment", amount: "-1.23", description: memo, relatedWalletId: bob.walletId });
    expect(tx.id).toBe(latest.id);
    // What execute() returns: a negative number and the currency's suffix (listed ones have strings and the symbol).
    expect({ amount: tx.amount, description: tx.description, related: tx.related }).toEqual({ amount: -1.23, description: memo, related: bob.profile.name });
    expect(tx.currency).toContain(symbol);

    // lokapi (new instances: balances are cached per instance) sees the new balances too.
    expect({ alice: await lokapiBalance(alice), bob: await lokapiBalance(bob) }).toEqual(after);
    payment = { id: tx.id, memo };
  });

  it("6. lists that payment on both sides with our API's id, amount, memo and counterparty", async () => {
    expect(payment, "the payment of step 5").toBeDefined();
    const { id, memo } = payment!;

    const aliceLokapi = await lokapiAs(alice);
    const [mine] = await collect<LokTransaction>(aliceLokapi.getTransactions(), 3);
    expect(essentials(mine!)).toEqual({ id, amount: "-1.23", description: memo, related: bob.profile.name });
    expect(mine!.currency).toBe(symbol);
    expect(mine!.isTopUp).toBe(false);
    expect((await alice.api.call("getTransactions", { params: { walletId: alice.walletId }, query: { limit: 1 } })).items[0]!.id).toBe(id);

    const bobLokapi = await lokapiAs(bob);
    const [theirs] = await collect<LokTransaction>(bobLokapi.getTransactions(), 3);
    expect(essentials(theirs!)).toEqual({ id, amount: "1.23", description: memo, related: alice.profile.name });
    expect((await bob.api.call("getTransactions", { params: { walletId: bob.walletId }, query: { limit: 1 } })).items[0]!.id).toBe(id);

    // And the whole recent history (demo top-ups and payments) reads the same in both APIs.
    for (const [lokapi, m] of [
      [aliceLokapi, alice],
      [bobLokapi, bob],
    ] as const) {
      const { ours, theirs: listed } = await bothHistories(lokapi, m);
      // The demo gives each several top-ups and payments: the comparison is not of two empty lists.
      expect(ours.filter((t) => t.isTopUp).length, m.email).toBeGreaterThan(0);
      expect(ours.filter((t) => !t.isTopUp).length, m.email).toBeGreaterThan(3);
      expect(listed, m.email).toEqual(ours);
    }
  });

  it("7. asks for a 10.00 top-up order, lists it as our API does, and cancels it", async () => {
    const lokapi = await lokapiAs(alice);
    const { userAccount, account } = await cyclosTree(lokapi);
    const { order_url: orderUrl } = await account.getCreditUrl("10.00");
    expect(orderUrl).toMatch(/^https?:\/\//);

    // Our API lists the same order, for 10.00, unpaid.
    const order = (await alice.api.call("getPendingTopUps", { query: { walletId: alice.walletId } })).find((o) => o.order_url === orderUrl);
    expect(order, "the order in our getPendingTopUps").toMatchObject({ walletId: alice.walletId, amount: "10.00", paid: false, state: "unpaid" });

    // lokapi lists the same orders as ours (the demo's paid one too), this one as unpaid.
    const listed = await account.getPendingTopUp();
    expect(listed.map((c) => c.jsonData.odoo.order_url).sort()).toEqual((await ourOrderUrls(alice)).sort());
    const request = listed.find((c) => c.jsonData.odoo.order_url === orderUrl)!;
    expect(Number(request.amount)).toBe(10);
    expect(request.paid).toBe(false);
    expect(request.backendId).toBe(userAccount.internalId);
    expect(request.requester).toMatchObject({ id: alice.profile.id });
    // Odoo dates are unix seconds: the same instant as ours, to the second.
    expect(Math.abs(request.date.getTime() - Date.parse(order!.date))).toBeLessThan(1000);

    await request.cancel();
    expect(await ourOrderUrls(alice)).not.toContain(orderUrl);
    expect(await lokapiOrderUrls(account)).not.toContain(orderUrl);
  });

  it("8. logs out without a request, then refuses private calls until the next login", async () => {
    const lokapi = await lokapiAs(alice);
    await cyclosTree(lokapi);
    const sent = lokapi.requests.length;

    await lokapi.logout();
    expect(lokapi.isLogged).toBe(false);
    expect(lokapi.persistentStore.get(ODOO_TOKEN_KEY)).toBeUndefined();
    // No key: lokapi refuses by itself, asks the app for a login, and sends nothing.
    await expect(lokapi.getBackends()).rejects.toBeInstanceOf(RestExc.TokenRequired);
    expect(lokapi.requestLoginCalls).toBe(1);
    expect(lokapi.requestsSince(sent)).toEqual([]);

    // Logging in again on the same instance works.
    await lokapi.login(alice.email, DEMO_PASSWORD);
    const { account } = await cyclosTree(lokapi);
    expect(await account.getBalance()).toBe(await ourBalance(alice));
  });
});

// ---------------------------------------------------------------------------------------------
// Refusals: each must reach lokapi as the exception Monujo acts on, and change nothing.
// ---------------------------------------------------------------------------------------------

describe("refusals as lokapi sees them", () => {
  it("a wrong password is InvalidCredentials", async () => {
    const lokapi = new NodeLokAPI(server.baseUrl, "odoo");
    await expect(lokapi.login(alice.email, "Wrong1234!")).rejects.toBeInstanceOf(RestExc.InvalidCredentials);
    expect(lokapi.persistentStore.get(ODOO_TOKEN_KEY)).toBeUndefined();
    // Odoo's way, which lokapi expects: a 200 with an error status.
    const raw = await http<{ status: string; error: string }>(server.baseUrl, "POST", "/lokavaluto_api/public/auth/authenticate", {
      body: { api_version: 12, params: ["lcc_app"], db: "odoo" },
      headers: { authorization: `Basic ${Buffer.from(`${alice.email}:Wrong1234!`).toString("base64")}` },
    });
    expect({ status: raw.status, body: raw.json }).toEqual({ status: 200, body: { status: "Error", error: "Access denied" } });
  });

  it("an unknown API key is AuthenticationRequired (HTTP 401 with a JSON body) and asks the app for a login", async () => {
    // A reload with a key the server does not know (expired, revoked or made up).
    const lokapi = new NodeLokAPI(server.baseUrl, "odoo");
    lokapi.persistentStore.set(ODOO_TOKEN_KEY, "not-a-session-token");
    const err = await lokapi.getMyContact().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RestExc.AuthenticationRequired);
    expect(lokapi.requestsSince(0)).toEqual(["GET /lokavaluto_api/private/partner/0 → 401"]);
    expect(lokapi.requestLoginCalls).toBe(1);
    expect(lokapi.isLogged).toBe(false);
    expect(lokapi.persistentStore.get(ODOO_TOKEN_KEY)).toBeUndefined();

    // On the wire: 401 and a JSON error, with a bad key or none.
    for (const headers of [{ "API-KEY": "not-a-session-token" }, {}] as Record<string, string>[]) {
      const raw = await http<{ error?: unknown }>(server.baseUrl, "GET", "/lokavaluto_api/private/partner/0", { headers });
      expect(raw.status).toBe(401);
      expect(raw.headers.get("content-type")).toMatch(/^application\/json/);
      expect(raw.json?.error, raw.text).toBeDefined();
    }
  });

  it("an unknown Cyclos session token is 401 loggedOut, which the plugin turns into AuthenticationRequired", async () => {
    const raw = await http<{ code?: string }>(server.baseUrl, "GET", `/cyclos/api/${ownerOf(alice.walletId)}/accounts`, {
      headers: { "Session-token": "not-a-session-token" },
    });
    expect(raw.status).toBe(401);
    expect(raw.json?.code, raw.text).toBe("loggedOut");
  });

  it("paying more than the balance is InsufficientBalance, and moves nothing", async () => {
    const before = { alice: await ourBalance(alice), bob: await ourBalance(bob), movements: await countMovements(t.db) };
    const lokapi = await lokapiAs(alice);
    const recipient = await bobFor(lokapi);
    const [planned] = await recipient.prepareTransfer(plus(before.alice, "1000.00"), "too much", "too much");
    await expect(planned!.execute()).rejects.toBeInstanceOf(lokapiExc.InsufficientBalance);
    expect({ alice: await ourBalance(alice), bob: await ourBalance(bob), movements: await countMovements(t.db) }).toEqual(before);
    // Refused, not logged out.
    expect(lokapi.requestLoginCalls).toBe(0);
    expect(lokapi.isLogged).toBe(true);
  });

  it("a refusal that is not about the session is not a 401: a favourite of an unknown member is a 404, and the session stays", async () => {
    const lokapi = await lokapiAs(alice);
    const unknownMember = 999_999_999;
    // lokapi's own authenticated call, as Contact.setFavorite makes it.
    const err = await lokapi.$put(`/partner/${unknownMember}/favorite/set`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(reqExc.HttpError);
    expect(err).not.toBeInstanceOf(RestExc.AuthenticationRequired);
    expect((err as InstanceType<typeof reqExc.HttpError>).code).toBe(404);
    expect(lokapi.requestLoginCalls).toBe(0);
    expect(lokapi.isLogged).toBe(true);
    // Our own API refuses the same way.
    const ours = await alice.api.call("setFavorite", { params: { memberId: unknownMember } }).catch((e: unknown) => e);
    expect(ours).toBeInstanceOf(RefusedError);
    expect((ours as RefusedError).status).toBe(404);

    // Still signed in: the next private call goes through.
    lokapi.flushBackendCaches();
    await expect(cyclosTree(lokapi)).resolves.toBeDefined();
  });
});
