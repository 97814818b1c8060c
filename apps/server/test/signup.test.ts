import { describe, expect, it } from "vitest";
import { MutuaClient, RefusedError } from "@mutua/client";
import { M, buildPath } from "@mutua/domain";
import { countMembers, http, Session, uniqueEmail, type ErrorJson, type TestServer } from "./helpers";
import { setupServerTest } from "./setup";

// The exact texts of the spec (section 5 and 8), typos included: they are the catalogs' msgids.
const EMPTY = "This fiels can not be empty.";
const INVALID_EMAIL = "Invalid email.";
const TOO_SHORT = "Password must be at least {n} characters long";
const CLASSES = "Password should use at least one lowercase character, uppercase character, digit, symbol";
const TAKEN = "User or email already exist.";

const GOOD = { firstName: "Zoé", lastName: "Durand", password: "Signup123!" };

// Limits are tested in rate-limit.test.ts; here they must not get in the way.
const t = setupServerTest({ server: { env: { RATE_LIMIT_SIGNUP_IP_MAX: "10000", RATE_LIMIT_SIGNUP_ACCOUNT_MAX: "10000" } } });

type Fields = Record<string, { msgid: string; values?: Record<string, string | number> }>;

/** Sends a signup as a raw body (the typed client would normalise it first) and checks nothing was written. */
async function refused(body: Record<string, string>, s: TestServer = t.server) {
  const before = await countMembers(t.db);
  const r = await http<ErrorJson>(s.baseUrl, "POST", buildPath("signup"), { body });
  expect(await countMembers(t.db)).toBe(before);
  return r;
}

async function fieldsOf(body: Record<string, string>): Promise<Fields> {
  const r = await refused(body);
  expect(r.status).toBe(400);
  expect(r.json.error.code).toBe("validation_failed");
  return r.json.error.fields ?? {};
}

describe("signup validation", () => {
  it("reports an empty e-mail", async () => {
    expect(await fieldsOf({ ...GOOD, email: "   " })).toEqual({ email: { msgid: EMPTY } });
  });

  it.each(["alice@", "alice@example", "a b@example.com", "alice.example.com", "@example.com"])("reports the invalid e-mail %j", async (email) => {
    expect(await fieldsOf({ ...GOOD, email })).toEqual({ email: { msgid: INVALID_EMAIL } });
  });

  it("refuses names with direction overrides or invisible characters (one member passing for another)", async () => {
    expect(await fieldsOf({ ...GOOD, email: uniqueEmail(), firstName: "Al\u200Bice", lastName: "Martin\u202E" })).toEqual({
      firstName: { msgid: M.nameCharacters },
      lastName: { msgid: M.nameCharacters },
    });
  });

  it("refuses them through the Lokavaluto face's sign-up as well, writing nothing", async () => {
    for (const [firstname, lastname] of [
      ["\u202EecilA", "Martin"],
      ["Alice", "Mar\u2060tin"],
      ["\uFEFFAlice", "Martin"],
    ]) {
      const before = await countMembers(t.db);
      const r = await http<{ status: string; error?: string }>(t.server.baseUrl, "POST", "/lokavaluto_api/public/auth/signup", {
        body: { login: uniqueEmail(), firstname, lastname, password: GOOD.password },
      });
      expect(r.json, JSON.stringify([firstname, lastname])).toEqual({ status: "Error", error: M.nameCharacters });
      expect(await countMembers(t.db)).toBe(before);
    }
  });

  it('refuses "Al\u00ADice Martin" (shown as "Alice Martin") and the other characters drawn as nothing, writing nothing', async () => {
    // refused() checks that no member was written.
    const names: [string, string][] = [
      ["Al\u00ADice", "Martin"],
      ["Alice", "Mar\u{E0041}tin"],
      ["Alice\u3164", "Martin"],
      ["Alice", "Martin\u2028"],
      ["Ali\u200Cce", "Martin"],
    ];
    for (const [firstName, lastName] of names) {
      expect(await fieldsOf({ ...GOOD, email: uniqueEmail(), firstName, lastName }), JSON.stringify([firstName, lastName])).toEqual(
        firstName === "Alice" ? { lastName: { msgid: M.nameCharacters } } : { firstName: { msgid: M.nameCharacters } },
      );
    }
    const before = await countMembers(t.db);
    const r = await http<{ status: string; error?: string }>(t.server.baseUrl, "POST", "/lokavaluto_api/public/auth/signup", {
      body: { login: uniqueEmail(), firstname: "Al\u00ADice", lastname: "Martin", password: GOOD.password },
    });
    expect(r.json).toEqual({ status: "Error", error: M.nameCharacters });
    expect(await countMembers(t.db)).toBe(before);
  });

  it("stores a name's spaces of any kind as one ordinary space, so that it reads as it is spelt", async () => {
    const email = uniqueEmail();
    const r = await http(t.server.baseUrl, "POST", buildPath("signup"), {
      body: { ...GOOD, email, firstName: "Anne\u00A0Marie", lastName: "Du\u3000\u2003Pont" },
    });
    expect(r.status).toBe(200);
    const { rows } = await t.db.query("SELECT first_name, last_name, name_key FROM members WHERE email = $1", [email]);
    expect(rows).toEqual([{ first_name: "Anne Marie", last_name: "Du Pont", name_key: "anne marie du pont" }]);
  });

  it("reports empty first and last names, also when only spaces", async () => {
    expect(await fieldsOf({ ...GOOD, email: uniqueEmail(), firstName: "", lastName: "  \t " })).toEqual({
      firstName: { msgid: EMPTY },
      lastName: { msgid: EMPTY },
    });
  });

  it("reports an empty password", async () => {
    expect(await fieldsOf({ ...GOOD, email: uniqueEmail(), password: "" })).toEqual({ password: { msgid: EMPTY } });
  });

  it("reports a short password with its minimum length as a value", async () => {
    expect(await fieldsOf({ ...GOOD, email: uniqueEmail(), password: "Ab1!" })).toEqual({ password: { msgid: TOO_SHORT, values: { n: 8 } } });
  });

  it.each(["signup123!", "SIGNUP123!", "Signup!!!!", "Signup1234"])("reports the missing character class of %j", async (password) => {
    expect(await fieldsOf({ ...GOOD, email: uniqueEmail(), password })).toEqual({ password: { msgid: CLASSES } });
  });

  it("reports every bad field at once, with the first one as the main message", async () => {
    const r = await refused({ email: "nope", firstName: "", lastName: "", password: "short" });
    expect(r.status).toBe(400);
    expect(Object.keys(r.json.error.fields!).sort()).toEqual(["email", "firstName", "lastName", "password"]);
    expect(r.json.error.msgid).toBe(INVALID_EMAIL);
    expect(r.json.error.message).toBe(INVALID_EMAIL);
  });

  it("refuses a body that is not the contract's shape, without writing", async () => {
    for (const body of [{}, { email: "a@example.org" }, { ...GOOD, email: 42 }] as unknown as Record<string, string>[]) {
      const r = await refused(body);
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe("validation_failed");
    }
  });

  it("exposes the fields through the client's RefusedError", async () => {
    const c = new MutuaClient({ baseUrl: t.server.baseUrl });
    const err = (await c.call("signup", { body: { ...GOOD, email: "x@y", password: "abc" } }).catch((e: unknown) => e)) as RefusedError;
    expect(err).toBeInstanceOf(RefusedError);
    expect(err.status).toBe(400);
    expect(err.code).toBe("validation_failed");
    expect(err.fields).toEqual({ email: { id: INVALID_EMAIL }, password: { id: TOO_SHORT, values: { n: 8 } } });
  });
});

describe("signup", () => {
  it("creates the member, who can then log in with a differently typed e-mail", async () => {
    const email = uniqueEmail("new");
    const before = await countMembers(t.db);
    const c = new MutuaClient({ baseUrl: t.server.baseUrl });
    expect(await c.call("signup", { body: { ...GOOD, email: `  ${email.toUpperCase()} `, firstName: "  Zoé ", lastName: " Durand" } })).toEqual({ ok: true });
    expect(await countMembers(t.db)).toBe(before + 1);

    const s = new Session(t.server.baseUrl);
    const r = await s.login(`  ${email.toUpperCase()}`, GOOD.password);
    expect(r.profile).toMatchObject({ email, firstName: "Zoé", lastName: "Durand", name: "Zoé Durand" });
    const { rows } = await t.db.query<{ email: string; password_hash: string }>("SELECT email, password_hash FROM members WHERE email = $1", [email]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.password_hash).toMatch(/^scrypt\$/);
    expect(rows[0]!.password_hash).not.toContain(GOOD.password);
  });

  it("normalises the e-mail on the server when a raw client sends it unnormalised", async () => {
    const email = uniqueEmail("raw");
    const r = await http(t.server.baseUrl, "POST", buildPath("signup"), { body: { ...GOOD, email: ` ${email.toUpperCase()}  ` } });
    expect(r.status).toBe(200);
    const { rows } = await t.db.query("SELECT 1 FROM members WHERE email = $1", [email]);
    expect(rows).toHaveLength(1);
  });

  it("refuses a taken e-mail, however it is cased or spaced, with 409 email_taken", async () => {
    const email = uniqueEmail("dup");
    expect((await http(t.server.baseUrl, "POST", buildPath("signup"), { body: { ...GOOD, email } })).status).toBe(200);
    for (const variant of [email, email.toUpperCase(), `  ${email} `, ` ${email.replace(/^./, (ch) => ch.toUpperCase())}\t`]) {
      const r = await refused({ ...GOOD, email: variant, firstName: "Other" });
      expect(r.status).toBe(409);
      expect(r.json.error).toMatchObject({ code: "email_taken", message: TAKEN, msgid: TAKEN });
    }
    const c = new MutuaClient({ baseUrl: t.server.baseUrl });
    const err = (await c.call("signup", { body: { ...GOOD, email } }).catch((e: unknown) => e)) as RefusedError;
    expect(err).toBeInstanceOf(RefusedError);
    expect([err.status, err.code, err.msg.id]).toEqual([409, "email_taken", TAKEN]);
    // The first sign-up's password still opens the account: a refused one did not overwrite it.
    const { rows } = await t.db.query<{ first_name: string }>("SELECT first_name FROM members WHERE email = $1", [email]);
    expect(rows.map((r) => r.first_name)).toEqual([GOOD.firstName]);
  });

  it("lets exactly one of several simultaneous sign-ups of one address through", async () => {
    const email = uniqueEmail("race");
    const results = await Promise.all([0, 1, 2].map(() => http<ErrorJson>(t.server.baseUrl, "POST", buildPath("signup"), { body: { ...GOOD, email } })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
  });

  it("is refused with 403 when sign-up is disabled, and writes nothing", async () => {
    const closed = await t.startServer({ env: { ALLOW_SIGNUP: "no" } });
    const r = await refused({ ...GOOD, email: uniqueEmail("closed") }, closed);
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe("signup_disabled");
    // Even an invalid form is not worth validating: nothing to sign up for.
    expect((await refused({ email: "", firstName: "", lastName: "", password: "" }, closed)).status).toBe(403);
  });
});
