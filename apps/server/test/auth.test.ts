import { beforeAll, describe, expect, it } from "vitest";
import { InvalidCredentialsError, LoginRequiredError, MutuaClient } from "@mutua/client";
import { ErrorCode, PUBLIC_ROUTES, buildPath, pathParamNames, pathWithAll, routes, type PathParams, type RouteName, SM } from "@mutua/domain";
import { http, seedMember, Session, type ErrorJson, type SeededMember } from "./helpers";
import { setupServerTest } from "./setup";
import { tokenHash } from "../src/services/members/sessions";

const t = setupServerTest();
let member: SeededMember;
let accountAdmin: SeededMember;
let creditAdmin: SeededMember;

beforeAll(async () => {
  member = await seedMember(t.db, { email: "alice.martin@example.org", firstName: " Alice ", lastName: "Martin" });
  accountAdmin = await seedMember(t.db, { canValidateAccounts: true });
  creditAdmin = await seedMember(t.db, { canValidateCredits: true });
});

/**
 * What `seconds` passing does to a session: each time it records (opened, last used, expiry,
 * last proof) moves that far into the past, so a test need not wait for a lifetime to run out.
 */
async function sessionAges(token: string, seconds: number): Promise<void> {
  await t.db.query(
    `UPDATE sessions SET created_at = created_at - make_interval(secs => $2), last_seen_at = last_seen_at - make_interval(secs => $2),
       expires_at = expires_at - make_interval(secs => $2), reauth_at = reauth_at - make_interval(secs => $2)
     WHERE token_hash = $1`,
    [tokenHash(token), seconds],
  );
}

describe("login", () => {
  it("accepts the e-mail typed with spaces and capitals, and returns a session and the profile", async () => {
    const s = new Session(t.server.baseUrl);
    const before = Date.now();
    const r = await s.login("  ALICE.Martin@Example.ORG  ", member.password);
    expect(r.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(r.profile).toEqual({
      id: Number(member.id),
      name: "Alice Martin",
      firstName: "Alice",
      lastName: "Martin",
      email: member.email,
      phone: null,
      photoUrl: null,
      pendingEmail: null,
    });
    // Default session lifetime is 30 days.
    const ttl = Date.parse(r.expiresAt) - before;
    expect(ttl).toBeGreaterThan(30 * 86_400_000 - 60_000);
    expect(ttl).toBeLessThan(30 * 86_400_000 + 60_000);
  });

  it("normalises the e-mail on the server too, not only in the client", async () => {
    const r = await http<{ token: string }>(t.server.baseUrl, "POST", buildPath("login"), {
      body: { login: " Alice.MARTIN@example.org ", password: member.password },
    });
    expect(r.status).toBe(200);
    expect(r.json.token).toBeTruthy();
  });

  it("remembers the language the app is read in, for the server's mails; one it has no words for changes nothing", async () => {
    const languageNow = async () => (await t.db.query("SELECT language FROM members WHERE id = $1", [member.id])).rows[0]!.language;
    const signIn = (language?: string) =>
      http(t.server.baseUrl, "POST", buildPath("login"), { body: { login: member.email, password: member.password, language } });
    expect((await signIn("fr-FR")).status).toBe(200);
    expect(await languageNow()).toBe("fr-FR");
    for (const other of ["de-DE", undefined]) {
      expect((await signIn(other)).status).toBe(200);
      expect(await languageNow()).toBe("fr-FR");
    }
    expect((await signIn("en-US")).status).toBe(200);
    expect(await languageNow()).toBe("en-US");
    // A wrong password says nothing of the language either.
    await http(t.server.baseUrl, "POST", buildPath("login"), { body: { login: member.email, password: "not-it", language: "fr-FR" } });
    expect(await languageNow()).toBe("en-US");
    await t.db.query("UPDATE members SET language = NULL WHERE id = $1", [member.id]);
  });

  it("refuses a wrong password with InvalidCredentialsError (401 invalid_credentials)", async () => {
    const s = new Session(t.server.baseUrl);
    const err = await s.login(member.email, "Wrong1234!").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidCredentialsError);
    expect((err as Error).message).toBe("Invalid credentials");
    expect(s.loginRequiredCalls).toBe(0);

    const r = await http<ErrorJson>(t.server.baseUrl, "POST", buildPath("login"), { body: { login: member.email, password: "Wrong1234!" } });
    expect(r.status).toBe(401);
    expect(r.json.error).toMatchObject({ code: "invalid_credentials", message: "Invalid credentials", msgid: "Invalid credentials" });
    expect(r.headers.get("set-cookie")).toBeNull();
  });

  it("answers an unknown e-mail exactly like a wrong password", async () => {
    const s = new Session(t.server.baseUrl);
    await expect(s.login("nobody@example.org", member.password)).rejects.toBeInstanceOf(InvalidCredentialsError);
    const unknown = await http<ErrorJson>(t.server.baseUrl, "POST", buildPath("login"), { body: { login: "nobody@example.org", password: "x" } });
    const wrong = await http<ErrorJson>(t.server.baseUrl, "POST", buildPath("login"), { body: { login: member.email, password: "x" } });
    expect(unknown.status).toBe(401);
    expect(unknown.json).toEqual(wrong.json);
  });
});

describe("sessions", () => {
  it("works with the Bearer token", async () => {
    const s = new Session(t.server.baseUrl);
    await s.login(member.email, member.password);
    const me = await s.client.call("getMyContact");
    expect(me).toEqual({
      id: Number(member.id),
      name: "Alice Martin",
      firstName: "Alice",
      lastName: "Martin",
      email: member.email,
      phone: null,
      photoUrl: null,
      pendingEmail: null,
    });
  });

  it("sets an HttpOnly, SameSite=Strict mutua_session cookie that alone opens the session", async () => {
    const r = await http<{ token: string; expiresAt: string }>(t.server.baseUrl, "POST", buildPath("login"), {
      body: { login: member.email, password: member.password },
    });
    expect(r.status).toBe(200);
    const cookie = r.headers.getSetCookie().find((c) => c.startsWith("mutua_session="));
    expect(cookie).toBeDefined();
    const [pair, ...attrs] = cookie!.split(/;\s*/);
    expect(pair).toBe(`mutua_session=${r.json.token}`);
    const lower = attrs.map((a) => a.toLowerCase());
    expect(lower).toContain("httponly");
    expect(lower).toContain("samesite=strict");
    expect(lower).toContain("path=/");
    // Served over plain http here, so not Secure (else browsers would drop it).
    expect(lower).not.toContain("secure");
    const expires = attrs.find((a) => /^expires=/i.test(a));
    expect(Math.abs(Date.parse(expires!.slice(8)) - Date.parse(r.json.expiresAt))).toBeLessThan(2_000);

    // Beside it, a flag the app can read that holds no secret: it only says "ask the server".
    const flag = r.headers.getSetCookie().find((c) => c.startsWith("mutua_signed_in="))!;
    expect(flag.split(/;\s*/)[0]).toBe("mutua_signed_in=1");
    expect(flag.toLowerCase()).not.toContain("httponly");
    expect(flag.toLowerCase()).toContain("samesite=strict");
    const flagOnly = await http(t.server.baseUrl, "GET", buildPath("getMyContact"), { headers: { cookie: "mutua_signed_in=1" } });
    expect(flagOnly.status).toBe(401);

    const me = await http<{ email: string }>(t.server.baseUrl, "GET", buildPath("getMyContact"), { headers: { cookie: `mutua_session=${r.json.token}` } });
    expect(me.status).toBe(200);
    expect(me.json.email).toBe(member.email);
  });

  it("marks the cookie Secure when the public URL is https (and names it __Host-: security.test.ts)", async () => {
    const s = await t.startServer({ env: { PUBLIC_URL: "https://wallet.example.org" } });
    const r = await http(s.baseUrl, "POST", buildPath("login"), { body: { login: member.email, password: member.password } });
    expect(r.status).toBe(200);
    const cookie = r.headers.getSetCookie().find((c) => c.startsWith("__Host-mutua_session="))!;
    expect(cookie.toLowerCase().split(/;\s*/)).toContain("secure");
  });

  it("refuses a made-up token, and a made-up cookie", async () => {
    const bogus = "A".repeat(43);
    const a = await http<ErrorJson>(t.server.baseUrl, "GET", buildPath("getMyContact"), { token: bogus });
    const b = await http<ErrorJson>(t.server.baseUrl, "GET", buildPath("getMyContact"), { headers: { cookie: `mutua_session=${bogus}` } });
    for (const r of [a, b]) {
      expect(r.status).toBe(401);
      expect(r.json.error.code).toBe(ErrorCode.loginRequired);
    }
  });

  it("logout revokes the session on the server and clears the cookie", async () => {
    const s = new Session(t.server.baseUrl);
    await s.login(member.email, member.password);
    const token = s.token!;
    await s.client.call("getMyContact");

    const out = await http<{ ok: boolean }>(t.server.baseUrl, "POST", buildPath("logout"), { token });
    expect(out.status).toBe(200);
    expect(out.json).toEqual({ ok: true });
    const cleared = out.headers.getSetCookie().find((c) => c.startsWith("mutua_session="));
    expect(cleared).toBeDefined();
    expect(cleared).toMatch(/^mutua_session=;/);
    expect(cleared!.toLowerCase()).toMatch(/expires=thu, 01 jan 1970|max-age=0/);
    expect(out.headers.getSetCookie().find((c) => c.startsWith("mutua_signed_in="))).toMatch(/^mutua_signed_in=;/);

    // The same token, replayed (as a stolen copy would be), is dead on the server side.
    await expect(s.client.call("getMyContact")).rejects.toBeInstanceOf(LoginRequiredError);
    expect(s.loginRequiredCalls).toBe(1);
    const r = await http<ErrorJson>(t.server.baseUrl, "GET", buildPath("getMyContact"), { token });
    expect(r.status).toBe(401);
    expect(r.json.error).toMatchObject({ code: "login_required", message: SM.loginRequired });
    const { rows } = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM sessions WHERE member_id = $1 AND revoked_at IS NOT NULL", [member.id]);
    expect(rows[0]!.n).toBeGreaterThanOrEqual(1);
  });

  it("logging out one session leaves the member's other sessions open", async () => {
    const a = new Session(t.server.baseUrl);
    const b = new Session(t.server.baseUrl);
    await a.login(member.email, member.password);
    await b.login(member.email, member.password);
    await a.client.call("logout");
    await expect(a.client.call("getMyContact")).rejects.toBeInstanceOf(LoginRequiredError);
    await expect(b.client.call("getMyContact")).resolves.toMatchObject({ email: member.email });
  });

  it("refuses a session past its absolute lifetime", async () => {
    const s = await t.startServer({ env: { SESSION_TTL_SECONDS: "1" } });
    const sess = new Session(s.baseUrl);
    const r = await sess.login(member.email, member.password);
    expect(Date.parse(r.expiresAt) - Date.now()).toBeLessThan(1_500);
    await expect(sess.client.call("getMyContact")).resolves.toMatchObject({ email: member.email });
    await sessionAges(sess.token!, 2);
    await expect(sess.client.call("getMyContact")).rejects.toBeInstanceOf(LoginRequiredError);
    expect(sess.loginRequiredCalls).toBe(1);
  });

  it("keeps a session in use alive past the idle limit, noting its use at most once a minute", async () => {
    const s = await t.startServer({ env: { SESSION_IDLE_SECONDS: "120" } });
    const sess = new Session(s.baseUrl);
    await sess.login(member.email, member.password);
    const lastSeen = async () =>
      (
        await t.db.query<{ age: number }>("SELECT extract(epoch FROM now() - last_seen_at)::float8 AS age FROM sessions WHERE token_hash = $1", [
          tokenHash(sess.token!),
        ])
      ).rows[0]!.age;
    const setAge = (seconds: number) =>
      t.db.query("UPDATE sessions SET last_seen_at = now() - make_interval(secs => $2) WHERE token_hash = $1", [tokenHash(sess.token!), seconds]);
    // Used 30 s ago: the use is not written again (reads only)…
    await setAge(30);
    await sess.client.call("getMyContact");
    expect(await lastSeen()).toBeGreaterThan(29);
    // …used 100 s ago: it is, so the session lives another idle window.
    await setAge(100);
    await sess.client.call("getMyContact");
    expect(await lastSeen()).toBeLessThan(5);
    // Left 130 s: past the limit.
    await setAge(130);
    await expect(sess.client.call("getMyContact")).rejects.toBeInstanceOf(LoginRequiredError);
  });

  it("refuses a session left idle longer than the idle limit", async () => {
    const s = await t.startServer({ env: { SESSION_IDLE_SECONDS: "1" } });
    const sess = new Session(s.baseUrl);
    await sess.login(member.email, member.password);
    await sessionAges(sess.token!, 2);
    await expect(sess.client.call("getMyContact")).rejects.toBeInstanceOf(LoginRequiredError);
    // Idle expiry is a server rule: the main server (default idle limit) would still have taken a fresh session.
    const fresh = new Session(t.server.baseUrl);
    await fresh.login(member.email, member.password);
    await expect(fresh.client.call("getMyContact")).resolves.toBeTruthy();
  });
});

describe("rights", () => {
  async function rights(m: SeededMember) {
    const s = new Session(t.server.baseUrl);
    await s.login(m.email, m.password);
    return [(await s.client.call("hasUserAccountValidationRights")).allowed, (await s.client.call("hasCreditRequestValidationRights")).allowed];
  }

  it("a plain member has neither validation right", async () => expect(await rights(member)).toEqual([false, false]));
  it("an account-validation admin has that right only", async () => expect(await rights(accountAdmin)).toEqual([true, false]));
  it("a credit-validation admin has that right only", async () => expect(await rights(creditAdmin)).toEqual([false, true]));
});

describe("route protection", () => {
  const privateRoutes = (Object.keys(routes) as RouteName[]).filter((n) => !PUBLIC_ROUTES.has(n));

  it("the contract has private routes at all (guards the loop below against an empty table)", () => {
    expect(privateRoutes).toContain("getMyContact");
    expect(privateRoutes).toContain("logout");
  });

  it.each(privateRoutes)("%s answers 401 login_required without a session", async (name) => {
    const route = routes[name];
    const variants: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> }[] = [{}, { token: "not-a-session" }];
    // Authentication must come before body validation, so an anonymous caller learns nothing
    // about what the route expects.
    if (route.method !== "GET") variants.push({ body: {} }, { rawBody: "{not json", headers: { "content-type": "application/json" } });
    for (const v of variants) {
      const r = await http<ErrorJson>(t.server.baseUrl, route.method, pathWithAll(name, "1"), v);
      expect(r.status, `${route.method} ${route.path} ${JSON.stringify(v)}`).toBe(401);
      expect(r.json.error.code).toBe(ErrorCode.loginRequired);
    }
  });

  it.each(privateRoutes)("%s through the typed client without a session is LoginRequiredError", async (name) => {
    const s = new Session(t.server.baseUrl);
    const params = Object.fromEntries(pathParamNames(name).map((k) => [k, "1"])) as PathParams<RouteName>;
    await expect(s.client.send(name, routes[name], { params } as Parameters<typeof s.client.send>[2])).rejects.toBeInstanceOf(LoginRequiredError);
    expect(s.loginRequiredCalls).toBe(1);
  });

  it.each([...PUBLIC_ROUTES])("public route %s never asks for a session", async (name) => {
    const route = routes[name];
    const r = await http(t.server.baseUrl, route.method, pathWithAll(name, "1"), route.method === "GET" ? {} : { body: {} });
    expect(r.status).not.toBe(401);
    expect(r.status).toBeLessThan(500);
  });
});

describe("capabilities", () => {
  it("signup and reset are allowed by default", async () => {
    const c = new MutuaClient({ baseUrl: t.server.baseUrl });
    expect((await c.call("canSignup")).allowed).toBe(true);
    expect((await c.call("canResetPassword")).allowed).toBe(true);
  });

  it("follow ALLOW_SIGNUP and ALLOW_RESET_PASSWORD", async () => {
    const noSignup = new MutuaClient({ baseUrl: (await t.startServer({ env: { ALLOW_SIGNUP: "false" } })).baseUrl });
    expect((await noSignup.call("canSignup")).allowed).toBe(false);
    expect((await noSignup.call("canResetPassword")).allowed).toBe(true);
    const noReset = new MutuaClient({ baseUrl: (await t.startServer({ env: { ALLOW_RESET_PASSWORD: "0" } })).baseUrl });
    expect((await noReset.call("canSignup")).allowed).toBe(true);
    expect((await noReset.call("canResetPassword")).allowed).toBe(false);
  });
});
