import { request as httpRequest } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { advanceReconversion } from "../../src/services/payments/reconversions";
import { markPaid } from "../../src/services/payments/topups";
import { openCustodialWallet, systemWallet, type BackendRow } from "../../src/services/wallets/wallets";
import {
  Session,
  countMovements,
  createBackend,
  freePort,
  http,
  newKey,
  seedMember,
  topUp,
  walletBalances,
  type SeededMember,
  type TestServer,
} from "../helpers";
import { setupServerTest } from "../setup";

/**
 * Lokavaluto's API at the HTTP level: what the conformance test with the real lokapi cannot show
 * (browsers' preflight, status codes and bodies of refusals, paging, other members' data).
 */

const t = setupServerTest({ server: false });
let server: TestServer;
let backend: BackendRow;
let alice: SeededMember & { wallet: string; owner: string; token: string };
let bob: SeededMember & { wallet: string; owner: string; token: string };

const owner = (walletId: string) => walletId.replace(/^custodial:/, "");

async function member(firstName: string) {
  const m = await seedMember(t.db, { firstName, lastName: "Test" });
  const wallet = await openCustodialWallet(t.db, backend, m.id, "active");
  const token = (await new Session(server.baseUrl).login(m.email, m.password)).token;
  return { ...m, wallet, owner: owner(wallet), token };
}

const odoo = (method: string, path: string, token: string | undefined, body?: unknown) =>
  http<Record<string, unknown>>(server.baseUrl, method, `/lokavaluto_api/private${path}`, {
    ...(body !== undefined ? { body } : {}),
    headers: token ? { "api-key": token } : {},
  });
const cyclos = (method: string, path: string, token: string | undefined, opts: { body?: unknown; headers?: Record<string, string> } = {}) =>
  http<unknown>(server.baseUrl, method, `/cyclos/api${path}`, {
    ...(opts.body !== undefined ? { body: opts.body } : {}),
    headers: { ...(token ? { "session-token": token } : {}), ...opts.headers },
  });

beforeAll(async () => {
  backend = await createBackend(t.db, { kind: "custodial", symbol: "LOK" });
  // Links are built from PUBLIC_URL, so it names the server's real address.
  const port = await freePort();
  server = await t.startServer({ env: { LOKAPI_CYCLOS_BACKEND: backend.id, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` } });
  alice = await member("Alice");
  bob = await member("Bob");
  await topUp(t.db, alice.wallet, "50.00");
});

describe("the Lokavaluto API over HTTP", () => {
  it("lets browsers on other sites call it by header (preflight), and exposes the paging header", async () => {
    const pre = await fetch(`${server.baseUrl}/lokavaluto_api/private/partner/0`, {
      method: "OPTIONS",
      headers: { origin: "https://monujo.example", "access-control-request-method": "GET", "access-control-request-headers": "api-key,content-type" },
    });
    expect(pre.status).toBeLessThan(300);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(pre.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("api-key");
    const page = await fetch(`${server.baseUrl}/cyclos/api/${alice.owner}/transactions?page=0`, {
      headers: { "session-token": alice.token, origin: "https://monujo.example" },
    });
    expect(page.headers.get("access-control-expose-headers")).toContain("X-Has-Next-Page");
    expect(page.headers.get("x-has-next-page")).toBe("false");
  });

  it("answers 401 with a JSON body only for a missing or unknown key, and 404 for an unknown path once the key is good", async () => {
    for (const token of [undefined, "not-a-key"]) {
      const r = await odoo("GET", "/partner/0", token);
      expect(r.status).toBe(401);
      expect(r.json).toMatchObject({ error: expect.any(String) });
      expect((await odoo("GET", "/no/such/thing", token)).status).toBe(401);
    }
    expect((await odoo("GET", "/no/such/thing", alice.token)).status).toBe(404);
    // Not the web app's fallback page (here, "not built"): JSON, as lokapi parses every answer.
    const pub = await http(server.baseUrl, "GET", "/lokavaluto_api/public/no/such/thing");
    expect([pub.status, typeof pub.json]).toEqual([404, "object"]);
    // A refusal that is not about the key is never 401 (lokapi would log the member out).
    expect((await odoo("PUT", "/partner/999999999/favorite/set", alice.token)).status).toBe(404);
    const c = await cyclos("GET", `/${alice.owner}/accounts`, "not-a-token");
    expect([c.status, c.json]).toEqual([401, { code: "loggedOut", message: expect.any(String) }]);
  });

  it("says whether a payment is allowed: between active wallets of the backend, from the caller's own", async () => {
    const allowed = async (token: string, from: string, to: string) =>
      (
        await odoo(
          "GET",
          `/partner/is_transaction_allowed?sender_wallet_ident=${encodeURIComponent(from)}&recipient_wallet_ident=${encodeURIComponent(to)}`,
          token,
        )
      ).json;
    expect(await allowed(alice.token, `cyclos:${alice.owner}@host:1`, `cyclos:${bob.owner}`)).toBe(true);
    expect(await allowed(alice.token, `cyclos:${alice.owner}@host:1`, `cyclos:${alice.owner}`)).toBe(false);
    expect(await allowed(alice.token, `cyclos:${bob.owner}@host:1`, `cyclos:${alice.owner}`)).toBe(false);
    expect(await allowed(alice.token, `cyclos:${alice.owner}@host:1`, "cyclos:nobody")).toBe(false);
    // The association's issuance wallet takes no payment: our API refuses it, and so does this question.
    const issuance = await systemWallet(t.db, backend.id, "issuance");
    expect(await allowed(alice.token, `cyclos:${alice.owner}@host:1`, `cyclos:${owner(issuance!.id)}`)).toBe(false);
    const r = await http<{ error: { code: string } }>(server.baseUrl, "POST", "/api/transfers", {
      token: alice.token,
      body: { from: alice.wallet, to: issuance!.id, parts: [{ account: "main", amount: "1.00" }], key: "pay-issuance-1" },
    });
    expect([r.status, r.json.error.code]).toEqual([404, "not_found"]);
  });

  it("authenticates with Basic auth, and says 'Access denied' in Odoo's way for a wrong password", async () => {
    const auth = (login: string, password: string) =>
      http<Record<string, unknown>>(server.baseUrl, "POST", "/lokavaluto_api/public/auth/authenticate", {
        body: { api_version: 12, params: ["lcc_app"] },
        headers: { authorization: `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}` },
      });
    const bad = await auth(alice.email, "wrong");
    expect([bad.status, bad.json]).toEqual([200, { status: "Error", error: "Access denied" }]);
    const ok = await auth(alice.email, alice.password);
    expect(ok.json).toMatchObject({
      status: "OK",
      uid: Number(alice.id),
      api_version: 12,
      prefetch: { partner: { id: Number(alice.id), email: alice.email } },
    });
    const creds = (ok.json.prefetch as { backend_credentials: unknown[] }).backend_credentials;
    // The same backend data, token included, when asked again: lokapi caches a backend per JSON text.
    const again = await odoo("POST", "/partner/backend_credentials", ok.json.api_token as string);
    expect(again.json).toEqual(creds);
    expect(creds).toEqual([
      expect.objectContaining({
        type: `cyclos:${new URL(server.baseUrl).host}`,
        accounts: [{ owner_id: alice.owner, url: `${server.baseUrl}/cyclos/api`, active: true, token: ok.json.api_token }],
      }),
    ]);
  });

  it("builds the login answer's URLs from PUBLIC_URL, whatever Host the request names", async () => {
    // node:http, not fetch: fetch will not send a Host of the caller's choosing.
    const raw = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${server.baseUrl}/lokavaluto_api/public/auth/authenticate`,
        {
          method: "POST",
          headers: {
            host: "evil.example.net",
            "x-forwarded-host": "evil.example.net",
            "content-type": "application/json",
            authorization: `Basic ${Buffer.from(`${alice.email}:${alice.password}`).toString("base64")}`,
          },
        },
        (res) => {
          let body = "";
          res.on("data", (d: Buffer) => (body += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify({ api_version: 12, params: ["lcc_app"] }));
    });
    expect(raw.status).toBe(200);
    expect(raw.body).not.toContain("evil.example.net");
    const creds = (JSON.parse(raw.body) as { prefetch: { backend_credentials: { type: string; accounts: { url: string }[] }[] } }).prefetch.backend_credentials;
    expect(creds[0]!.type).toBe(`cyclos:${new URL(server.settings.publicUrl).host}`);
    expect(creds[0]!.accounts[0]!.url).toBe(`${server.settings.publicUrl}/cyclos/api`);
  });

  it("names only active wallets to /cyclos/contact: a pending or discarded wallet's owner stays unknown", async () => {
    const pending = await seedMember(t.db, { firstName: "Pending", lastName: "Person" });
    const discarded = await seedMember(t.db, { firstName: "Discarded", lastName: "Person" });
    const pw = await openCustodialWallet(t.db, backend, pending.id, "pending");
    const dw = await openCustodialWallet(t.db, backend, discarded.id, "discarded");
    const r = await odoo("POST", "/cyclos/contact", alice.token, { addresses: [owner(pw), owner(dw), bob.owner] });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual([bob.owner]);
    expect(JSON.stringify(r.json)).not.toMatch(/Pending|Discarded/);
  });

  it("searches members page by page, favourites first, never the caller, nobody's contact details", async () => {
    const others = [bob, await member("Bobby"), await member("Bobbie")];
    const key = `cyclos:${new URL(server.baseUrl).host}`;
    const search = async (value: string, offset: number, limit: number) =>
      (await odoo("GET", `/partner/search?value=${value}&backend_keys%5B0%5D=${encodeURIComponent(key)}&offset=${offset}&limit=${limit}`, alice.token))
        .json as {
        rows: { id: number; email: unknown; is_favorite: boolean; monujo_backends: Record<string, string[]> }[];
      };
    const first = await search("bob", 0, 2);
    const rest = await search("bob", 2, 2);
    expect(first.rows).toHaveLength(2);
    expect(rest.rows).toHaveLength(1);
    const all = [...first.rows, ...rest.rows];
    expect(all.map((r) => r.id).sort()).toEqual(others.map((o) => Number(o.id)).sort());
    expect(all.every((r) => r.email === false)).toBe(true);
    expect(all.find((r) => r.id === Number(bob.id))!.monujo_backends).toEqual({ [key]: [bob.owner] });
    expect((await search("alice", 0, 30)).rows).toEqual([]);
    // Another backend's key: nothing.
    expect((await odoo("GET", `/partner/search?value=bob&backend_keys%5B0%5D=cyclos%3Aelsewhere`, alice.token)).json).toEqual({ count: 0, rows: [] });
    expect((await search("", 0, 30)).rows).toEqual([]);
    await odoo("PUT", `/partner/${others[2]!.id}/favorite/set`, alice.token);
    expect((await search("", 0, 30)).rows.map((r) => r.id)).toEqual([Number(others[2]!.id)]);
    expect((await search("bob", 0, 30)).rows[0]).toMatchObject({ id: Number(others[2]!.id), is_favorite: true });
  });

  it("pages transactions with X-Has-Next-Page, in the same order and with the same ids as our own API", async () => {
    const carol = await member("Carol");
    for (let i = 0; i < 41; i++) await topUp(t.db, carol.wallet, "1.00");
    const page = async (n: number) => cyclos("GET", `/${carol.owner}/transactions?page=${n}&orderBy=dateDesc`, carol.token);
    const [p0, p1] = [await page(0), await page(1)];
    expect([p0.headers.get("x-has-next-page"), p1.headers.get("x-has-next-page")]).toEqual(["true", "false"]);
    const ids = [...(p0.json as { id: string }[]), ...(p1.json as { id: string }[])].map((t) => t.id);
    const ours = await new Session(server.baseUrl, { getToken: () => carol.token }).client.call("getTransactions", {
      params: { walletId: carol.wallet },
      query: { limit: 100 },
    });
    expect(ids).toEqual(ours.items.map((t) => t.id));
    expect((p0.json as unknown[])[0]).toMatchObject({ amount: "1.00", related: { kind: "system" } });
    // Another member's history is not found, whatever the token.
    expect((await cyclos("GET", `/${carol.owner}/transactions?page=0`, alice.token)).status).toBe(404);
  });

  it("pays through the Cyclos slice: refusals in Cyclos's words, nothing moved; a repeated Idempotency-Key pays once", async () => {
    const pay = (amount: unknown, headers: Record<string, string> = {}) =>
      cyclos("POST", "/self/payments", alice.token, { body: { amount, description: "bread", subject: bob.owner }, headers });
    const before = await countMovements(t.db);
    expect([(await pay("1.234")).status, (await pay("1.234")).json]).toEqual([422, { code: "validation", message: expect.any(String) }]);
    expect(await pay("100000.00")).toMatchObject({ status: 422, json: { code: "insufficientBalance" } });
    expect(await countMovements(t.db)).toBe(before);
    const key = newKey("cyclos");
    const first = await pay("2.50", { "idempotency-key": key });
    const second = await pay("2.50", { "idempotency-key": key });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ amount: "2.50", to: { kind: "user" }, toUser: { id: bob.owner }, currency: { suffix: "LOK" } });
    expect((second.json as { id: string }).id).toBe((first.json as { id: string }).id);
    expect(await countMovements(t.db)).toBe(before + 1);
    expect(await walletBalances(t.db, bob.wallet)).toEqual({ main: "2.50" });
  });

  it("shows a member only their own top-ups and reconversions; credit requests need the validation right", async () => {
    const order = (await odoo("POST", "/cyclos/credit", alice.token, { owner_id: alice.owner, amount: "12.00" })).json as { order_url: string };
    const mine = await odoo("GET", `/partner/pending-topup?backend_keys%5B0%5D=${encodeURIComponent(`cyclos:${alice.owner}@host`)}`, alice.token);
    expect(mine.json).toEqual([expect.objectContaining({ order_url: order.order_url, amount: 12, paid: false })]);
    expect((await odoo("GET", `/partner/pending-topup?backend_keys%5B0%5D=${encodeURIComponent(`cyclos:${alice.owner}`)}`, bob.token)).status).toBe(404);
    expect((await odoo("GET", "/partner/credit-requests?backend_keys%5B0%5D=x", alice.token)).status).toBe(403);
    const admin = await seedMember(t.db, { canValidateCredits: true });
    const adminToken = (await new Session(server.baseUrl).login(admin.email, admin.password)).token;
    const orderId = (mine.json as unknown as { order_id: string }[])[0]!.order_id;
    await markPaid(t.db, orderId, null);
    const requests = await odoo("GET", "/partner/credit-requests?backend_keys%5B0%5D=x", adminToken);
    expect(requests.json).toEqual([expect.objectContaining({ order_id: orderId, amount: 12, paid: true })]);

    // Alice reconverts 3.00: its status, once the association has received it, is hers alone to read.
    const safe = (await systemWallet(t.db, backend.id, "safe"))!;
    const r = (await cyclos("POST", "/self/payments", alice.token, { body: { amount: "3.00", description: "back", subject: owner(safe.id) } })).json as {
      id: string;
      to: { kind: string };
    };
    expect(r.to.kind).toBe("system");
    const uri = `cyclos://${new URL(server.baseUrl).host}/tx/${r.id}`;
    expect((await odoo("POST", "/partner/reconversions", alice.token, { transactions: [uri] })).json).toEqual({});
    await advanceReconversion(t.db, admin.id, r.id, "received");
    expect((await odoo("POST", "/partner/reconversions", alice.token, { transactions: [uri] })).json).toEqual({ [uri]: "received" });
    expect((await odoo("POST", "/partner/reconversions", bob.token, { transactions: [uri] })).json).toEqual({});
  });
});
