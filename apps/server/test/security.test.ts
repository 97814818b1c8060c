import { beforeAll, describe, expect, it } from "vitest";
import { createBackend, http, memberToken, seedMember, type TestServer } from "./helpers";
import { setupServerTest } from "./setup";
import { openCustodialWallet } from "../src/services/wallets/wallets";

/** Transport and headers: the CSP and its companions on every answer, HSTS behind HTTPS, CSRF refused. */
const t = setupServerTest();
let https: TestServer;

beforeAll(async () => {
  https = await t.startServer({ env: { PUBLIC_URL: "https://wallet.example.org" } });
});

const directives = (csp: string) => Object.fromEntries(csp.split(/;\s*/).map((d) => [d.split(" ")[0], d.split(" ").slice(1)]));

describe("security headers", () => {
  it.each(["/api/health", "/api/me", "/config.json", "/dashboard", "/orders/nope"])(
    "%s carries a CSP without inline scripts, and no framing by other sites",
    async (path) => {
      const r = await http(t.server.baseUrl, "GET", path);
      const csp = directives(r.headers.get("content-security-policy") ?? "");
      expect(csp["script-src"]).toEqual(["'self'", "'wasm-unsafe-eval'"]);
      expect(csp["frame-ancestors"]).toEqual(["'self'"]);
      expect(csp["object-src"]).toEqual(["'none'"]);
      expect(csp["default-src"]).toEqual(["'self'"]);
      expect(r.headers.get("x-content-type-options")).toBe("nosniff");
      // An order page, the capability to pay, is never framed at all.
      expect(r.headers.get("x-frame-options")).toBe(path.startsWith("/orders/") ? "DENY" : "SAMEORIGIN");
      expect(r.headers.get("strict-transport-security")).toBeNull();
    },
  );

  it("sends HSTS when the public address is https", async () => {
    const r = await http(https.baseUrl, "GET", "/api/health");
    expect(r.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
  });

  it("never puts the session in a URL: login answers it in the body and an HttpOnly cookie", async () => {
    const m = await seedMember(t.db);
    const r = await http<{ token: string }>(t.server.baseUrl, "POST", "/api/auth/login", { body: { login: m.email, password: m.password } });
    expect(r.status).toBe(200);
    expect(r.headers.get("location")).toBeNull();
    expect(r.headers.get("set-cookie")).toMatch(/HttpOnly/i);
  });
});

describe("cross-site requests", () => {
  async function cookieOf() {
    const m = await seedMember(t.db);
    const backend = await createBackend(t.db, { kind: "custodial" });
    await openCustodialWallet(t.db, backend, m.id, "active");
    // Fresh: the route these tests post to adds a device login, which needs a proven session.
    return `mutua_session=${await memberToken(t.db, m.id, { fresh: true })}`;
  }
  const post = (cookie: string, headers: Record<string, string>) => http(t.server.baseUrl, "POST", "/api/device-logins", { headers: { cookie, ...headers } });

  it("refuses a cookie-authenticated change from another origin, and lets the same origin through", async () => {
    const cookie = await cookieOf();
    expect((await post(cookie, { origin: "https://evil.example.net" })).status).toBe(403);
    expect((await post(cookie, { "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await post(cookie, { "sec-fetch-site": "same-site" })).status).toBe(403);
    expect((await post(cookie, { origin: "null" })).status).toBe(403);
    // A same-origin page with Referrer-Policy no-referrer posts its forms with "Origin: null".
    expect((await post(cookie, { origin: "null", "sec-fetch-site": "same-origin" })).status).toBe(200);
    expect((await post(cookie, { origin: t.server.baseUrl, "sec-fetch-site": "same-origin" })).status).toBe(200);
    // Reads are not changes, and a Bearer token is never sent by another site on its own.
    expect((await http(t.server.baseUrl, "GET", "/api/me", { headers: { cookie, origin: "https://evil.example.net" } })).status).toBe(200);
  });

  it("lets Bearer-token clients through whatever their origin", async () => {
    const m = await seedMember(t.db);
    const token = await memberToken(t.db, m.id, { fresh: true });
    expect((await http(t.server.baseUrl, "POST", "/api/device-logins", { token, headers: { origin: "capacitor://localhost" } })).status).toBe(200);
  });

  it("a cookie never signs in a request that carries an Authorization header, so no header skips the Origin check", async () => {
    const cookie = await cookieOf();
    const devices = async () => (await t.db.query("SELECT 1 FROM device_logins")).rowCount;
    const before = await devices();
    const evil = { origin: "https://evil.example.net", "sec-fetch-site": "cross-site" };
    // Any header used to skip the check while the cookie still authenticated the change.
    for (const authorization of ["Basic Zm9vOmJhcg==", "Bearer", "Bearer not-a-session", "x"]) {
      const r = await post(cookie, { ...evil, authorization });
      expect(r.status, authorization).toBe(401);
      // Same origin too: header or cookie, never both.
      expect((await post(cookie, { authorization, "sec-fetch-site": "same-origin" })).status, authorization).toBe(401);
    }
    expect(await devices()).toBe(before);
  });
});

describe("caching", () => {
  it("answers of the API, its login and the Lokavaluto face say no-store", async () => {
    const m = await seedMember(t.db);
    const token = await memberToken(t.db, m.id);
    for (const path of ["/api/me", "/api/accounts", "/api/me/devices", "/api/health"]) {
      expect((await http(t.server.baseUrl, "GET", path, { token })).headers.get("cache-control"), path).toBe("no-store");
    }
    const login = await http(t.server.baseUrl, "POST", "/api/auth/login", { body: { login: m.email, password: m.password } });
    expect(login.status).toBe(200);
    expect(login.headers.get("cache-control")).toBe("no-store");
    expect((await http(t.server.baseUrl, "GET", "/lokavaluto_api/private/partner/0", { headers: { "API-KEY": token } })).headers.get("cache-control")).toBe(
      "no-store",
    );
    // The app's files keep their own caching.
    expect((await http(t.server.baseUrl, "GET", "/config.json")).headers.get("cache-control")).toBe("no-cache");
  });
});

describe("the session cookie under https", () => {
  it("is a __Host- cookie: Secure, path /, no Domain", async () => {
    const m = await seedMember(t.db);
    const r = await http(https.baseUrl, "POST", "/api/auth/login", { body: { login: m.email, password: m.password } });
    expect(r.status).toBe(200);
    const session = r.headers.getSetCookie().find((c) => c.includes("mutua_session="))!;
    expect(session).toMatch(/^__Host-mutua_session=[\w-]+;/);
    expect(session).toMatch(/; Secure/i);
    expect(session).toMatch(/; Path=\/(;|$)/);
    expect(session).toMatch(/; HttpOnly/i);
    expect(session).not.toMatch(/Domain=/i);
  });

  it("accepts only the prefixed cookie there: one without the prefix may have been planted by a sibling subdomain", async () => {
    const m = await seedMember(t.db);
    const token = await memberToken(t.db, m.id);
    expect((await http(https.baseUrl, "GET", "/api/me", { headers: { cookie: `mutua_session=${token}` } })).status).toBe(401);
    expect((await http(https.baseUrl, "GET", "/api/me", { headers: { cookie: `__Host-mutua_session=${token}` } })).status).toBe(200);
  });
});
