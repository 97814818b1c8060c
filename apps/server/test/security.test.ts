import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBackend, createTestDatabase, http, memberToken, seedMember, startServer, type TestDatabase, type TestServer } from "./helpers";
import { openCustodialWallet } from "../src/services/wallets";

/** Transport and headers: the CSP and its companions on every answer, HSTS behind HTTPS, CSRF refused. */
let tdb: TestDatabase;
let server: TestServer;
let https: TestServer;

beforeAll(async () => {
  tdb = await createTestDatabase();
  server = await startServer(tdb.db);
  https = await startServer(tdb.db, { env: { PUBLIC_URL: "https://wallet.example.org" } });
});
afterAll(async () => {
  await server?.close();
  await https?.close();
  await tdb?.drop();
});

const directives = (csp: string) => Object.fromEntries(csp.split(/;\s*/).map((d) => [d.split(" ")[0], d.split(" ").slice(1)]));

describe("security headers", () => {
  it.each(["/api/health", "/api/me", "/config.json", "/dashboard", "/orders/nope"])("%s carries a CSP without inline scripts, and no framing by other sites", async (path) => {
    const r = await http(server.baseUrl, "GET", path);
    const csp = directives(r.headers.get("content-security-policy") ?? "");
    expect(csp["script-src"]).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(csp["frame-ancestors"]).toEqual(["'self'"]);
    expect(csp["object-src"]).toEqual(["'none'"]);
    expect(csp["default-src"]).toEqual(["'self'"]);
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    // An order page, the capability to pay, is never framed at all.
    expect(r.headers.get("x-frame-options")).toBe(path.startsWith("/orders/") ? "DENY" : "SAMEORIGIN");
    expect(r.headers.get("strict-transport-security")).toBeNull();
  });

  it("sends HSTS when the public address is https", async () => {
    const r = await http(https.baseUrl, "GET", "/api/health");
    expect(r.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
  });

  it("never puts the session in a URL: login answers it in the body and an HttpOnly cookie", async () => {
    const m = await seedMember(tdb.db);
    const r = await http<{ token: string }>(server.baseUrl, "POST", "/api/auth/login", { body: { login: m.email, password: m.password } });
    expect(r.status).toBe(200);
    expect(r.headers.get("location")).toBeNull();
    expect(r.headers.get("set-cookie")).toMatch(/HttpOnly/i);
  });
});

describe("cross-site requests", () => {
  async function cookieOf() {
    const m = await seedMember(tdb.db);
    const backend = await createBackend(tdb.db, { kind: "custodial" });
    await openCustodialWallet(tdb.db, backend, m.id, "active");
    return `mutua_session=${await memberToken(tdb.db, m.id)}`;
  }
  const post = (cookie: string, headers: Record<string, string>) =>
    http(server.baseUrl, "POST", "/api/device-logins", { headers: { cookie, ...headers } });

  it("refuses a cookie-authenticated change from another origin, and lets the same origin through", async () => {
    const cookie = await cookieOf();
    expect((await post(cookie, { origin: "https://evil.example.net" })).status).toBe(403);
    expect((await post(cookie, { "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await post(cookie, { "sec-fetch-site": "same-site" })).status).toBe(403);
    expect((await post(cookie, { origin: "null" })).status).toBe(403);
    // A same-origin page with Referrer-Policy no-referrer posts its forms with "Origin: null".
    expect((await post(cookie, { origin: "null", "sec-fetch-site": "same-origin" })).status).toBe(200);
    expect((await post(cookie, { origin: server.baseUrl, "sec-fetch-site": "same-origin" })).status).toBe(200);
    // Reads are not changes, and a Bearer token is never sent by another site on its own.
    expect((await http(server.baseUrl, "GET", "/api/me", { headers: { cookie, origin: "https://evil.example.net" } })).status).toBe(200);
  });

  it("lets Bearer-token clients through whatever their origin", async () => {
    const m = await seedMember(tdb.db);
    const token = await memberToken(tdb.db, m.id);
    expect((await http(server.baseUrl, "POST", "/api/device-logins", { token, headers: { origin: "capacitor://localhost" } })).status).toBe(200);
  });
});
