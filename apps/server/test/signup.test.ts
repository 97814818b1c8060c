import { describe, expect, it } from "vitest";
import { MutuaClient, RefusedError } from "@mutua/client";
import { M, SM, buildPath } from "@mutua/domain";
import type { Mail } from "../src/services/platform/mail";
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
  it("creates the member, who signs in with a differently typed e-mail once they opened the link sent to their address", async () => {
    const sent: Mail[] = [];
    const s = await t.startServer({ env: { PUBLIC_URL: "http://wallet.example.test" }, mailer: { send: async (m) => void sent.push(m) } });
    const email = uniqueEmail("new");
    const before = await countMembers(t.db);
    const c = new MutuaClient({ baseUrl: s.baseUrl });
    expect(await c.call("signup", { body: { ...GOOD, email: `  ${email.toUpperCase()} `, firstName: "  Zoé ", lastName: " Durand" } })).toEqual({ ok: true });
    expect(await countMembers(t.db)).toBe(before + 1);
    await expect.poll(() => sent.length).toBe(1);
    expect(sent[0]).toMatchObject({ to: email, subject: "Confirm your e-mail address" });

    // Before the link: the right password is not enough, and a new link is sent with the refusal.
    const early = await http<ErrorJson>(s.baseUrl, "POST", buildPath("login"), { body: { login: email, password: GOOD.password } });
    expect([early.status, early.json.error.code, early.json.error.msgid]).toEqual([403, "email_unconfirmed", SM.emailUnconfirmed]);
    await expect.poll(() => sent.length).toBe(2);
    // A wrong password is told nothing of the kind.
    const wrong = await http<ErrorJson>(s.baseUrl, "POST", buildPath("login"), { body: { login: email, password: "Wrong-Pass-9" } });
    expect(wrong.json.error.code).toBe("invalid_credentials");

    const token = /\/confirm-email\?token=([A-Za-z0-9_-]+)/.exec(sent[1]!.text)![1]!;
    expect(await c.call("confirmEmail", { body: { token } })).toEqual({ ok: true });
    // Once: the link, and the one sent before it, open nothing more.
    const again = await http<ErrorJson>(s.baseUrl, "POST", buildPath("confirmEmail"), { body: { token } });
    expect([again.status, again.json.error.code]).toEqual([400, "invalid_confirmation_token"]);
    const first = /\/confirm-email\?token=([A-Za-z0-9_-]+)/.exec(sent[0]!.text)![1]!;
    expect((await http(s.baseUrl, "POST", buildPath("confirmEmail"), { body: { token: first } })).status).toBe(400);

    const r = await new Session(s.baseUrl).login(`  ${email.toUpperCase()}`, GOOD.password);
    expect(r.profile).toMatchObject({ email, firstName: "Zoé", lastName: "Durand", name: "Zoé Durand" });
    const { rows } = await t.db.query<{ email: string; password_hash: string; email_verified_at: Date | null }>(
      "SELECT email, password_hash, email_verified_at FROM members WHERE email = $1",
      [email],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.password_hash).toMatch(/^scrypt\$/);
    expect(rows[0]!.password_hash).not.toContain(GOOD.password);
    expect(rows[0]!.email_verified_at).not.toBeNull();
  });

  it("writes the confirmation in the language the visitor signed up in, and remembers it for later mails; else in the association's", async () => {
    const sent: Mail[] = [];
    const s = await t.startServer({ env: { PUBLIC_URL: "http://wallet.example.test" }, mailer: { send: async (m) => void sent.push(m) } });
    const c = new MutuaClient({ baseUrl: s.baseUrl });
    const mailsTo = (email: string) => sent.filter((m) => m.to === email);
    const languageOf = async (email: string) => (await t.db.query("SELECT language FROM members WHERE email = $1", [email])).rows[0]!.language;
    const withoutToken = (m: Mail) => m.text.replace(/token=[\w-]+/, "token=…");

    const lea = uniqueEmail("lea");
    expect(await c.call("signup", { body: { ...GOOD, email: lea, firstName: "Léa", language: "fr-FR" } })).toEqual({ ok: true });
    await expect.poll(() => mailsTo(lea).length).toBe(1);
    expect(mailsTo(lea)[0]!.subject).toBe("Confirmez votre adresse e-mail");
    expect(withoutToken(mailsTo(lea)[0]!)).toBe(
      "Bonjour Léa,\n\nQuelqu'un (vous, espérons-le) s'est inscrit avec cette adresse. Ouvrez ce lien dans les deux jours pour la confirmer :\n\n" +
        "http://wallet.example.test/confirm-email?token=…\n\n" +
        "Connectez-vous ensuite avec le mot de passe que vous avez choisi. Si vous ne vous êtes pas inscrit, ignorez ce message : personne ne peut utiliser le compte.\n",
    );
    expect(await languageOf(lea)).toBe("fr-FR");
    // Signing in before opening it sends it again, in French too.
    expect((await http(s.baseUrl, "POST", buildPath("login"), { body: { login: lea, password: GOOD.password } })).status).toBe(403);
    await expect.poll(() => mailsTo(lea).length).toBe(2);
    expect(mailsTo(lea)[1]!.subject).toBe("Confirmez votre adresse e-mail");

    // A language the server has no words for, or none: the association's (English here), and nothing is remembered.
    for (const language of ["de-DE", undefined]) {
      const email = uniqueEmail("other");
      expect(await c.call("signup", { body: { ...GOOD, email, language } })).toEqual({ ok: true });
      await expect.poll(() => mailsTo(email).length).toBe(1);
      expect(mailsTo(email)[0]!.subject).toBe("Confirm your e-mail address");
      expect(withoutToken(mailsTo(email)[0]!)).toBe(
        "Hello Zoé,\n\nSomeone (hopefully you) signed up with this address. Open this link within two days to confirm it:\n\n" +
          "http://wallet.example.test/confirm-email?token=…\n\n" +
          "Then sign in with the password you chose. If you did not sign up, ignore this message: nobody can use the account.\n",
      );
      expect(await languageOf(email)).toBeNull();
    }
  });

  it("gives whoever signs up with somebody else's address an account that cannot sign in, receive or spend", async () => {
    const sent: Mail[] = [];
    const s = await t.startServer({ mailer: { send: async (m) => void sent.push(m) } });
    const victim = uniqueEmail("victim");
    await new MutuaClient({ baseUrl: s.baseUrl }).call("signup", { body: { ...GOOD, email: victim } });
    // The stranger knows the password they chose, not the mailbox: they never get a session, so
    // neither a wallet nor a payment; the address stays unproven for the import (services/import).
    for (let i = 0; i < 2; i++) {
      const r = await http<ErrorJson>(s.baseUrl, "POST", buildPath("login"), { body: { login: victim, password: GOOD.password } });
      expect(r.status).toBe(403);
    }
    const lokapi = await http<{ status: string; error?: string }>(s.baseUrl, "POST", "/lokavaluto_api/public/auth/authenticate", {
      headers: { authorization: `Basic ${Buffer.from(`${victim}:${GOOD.password}`).toString("base64")}` },
    });
    expect(lokapi.json.status).not.toBe("OK");
    const { rows } = await t.db.query("SELECT email_verified_at, awaiting_email_confirmation FROM members WHERE email = $1", [victim]);
    expect(rows[0]).toEqual({ email_verified_at: null, awaiting_email_confirmation: true });
    expect((await t.db.query("SELECT 1 FROM sessions s JOIN members m ON m.id = s.member_id WHERE m.email = $1", [victim])).rowCount).toBe(0);
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
