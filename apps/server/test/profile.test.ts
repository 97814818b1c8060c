import { describe, expect, it } from "vitest";
import { M, PHOTO_MAX_BYTES, SM, buildPath } from "@mutua/domain";
import type { Mail } from "../src/services/platform/mail";
import { openCustodialWallet } from "../src/services/wallets/wallets";
import { Api, TEST_PASSWORD, TINY_JPEG, TINY_PNG, createBackend, http, memberToken, seedMember, uniqueEmail, type SeededMember } from "./helpers";
import { setupServerTest } from "./setup";

/**
 * The member's own profile: a phone number checked leniently; a photo (JPEG, WebP or PNG by its
 * bytes, 64 KB at most) any signed-in member sees, cached by its versioned address; a new e-mail
 * address that takes effect only once the link sent to it is confirmed; a new password that signs
 * every other session out.
 */

const sent: Mail[] = [];
// Four wrong passwords per account and window, so the test of the limit is quick.
// Mail to a "bounce-" address fails, as when the mail server is down.
const mailer = {
  send: async (m: Mail) => {
    if (m.to.startsWith("bounce-")) throw new Error("mail server down");
    sent.push(m);
  },
};
const t = setupServerTest({ server: { mailer, env: { RATE_LIMIT_LOGIN_ACCOUNT_MAX: "4" } } });

async function person(tag = "member") {
  const member = await seedMember(t.db, { email: uniqueEmail(tag), firstName: tag });
  const token = await memberToken(t.db, member.id);
  return { member, token, api: new Api(t.server.baseUrl, token) };
}

const mailsTo = (to: string) => sent.filter((m) => m.to === to);
const emailOf = async (m: SeededMember) => (await t.db.query<{ email: string }>("SELECT email FROM members WHERE id = $1", [m.id])).rows[0]!.email;
/** The link's token, from the e-mail sent to the new address. */
const linkToken = (mail: Mail) => {
  const link = /https?:\/\/\S+\/api\/email-change\?token=([\w-]+)/.exec(mail.text);
  expect(link, mail.text).toBeTruthy();
  return link![1]!;
};
const openLink = (token: string) => http(t.server.baseUrl, "GET", `${buildPath("emailChangePage")}?token=${token}`);
const confirmLink = (token: string) =>
  http(t.server.baseUrl, "POST", `${buildPath("confirmEmailChange")}?token=${token}`, {
    rawBody: "",
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
const photoOf = (url: string, token: string | undefined, headers: Record<string, string> = {}) =>
  fetch(t.server.baseUrl + url, { headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });

describe("phone number", () => {
  it("is saved as typed (trimmed), shown in the profile, found by administrators, and cleared with null", async () => {
    const { member, api } = await person();
    const r = await api.call("setMyPhone", { body: { phone: "  +33 (0)6 12-34.56.78 " } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.phone).toBe("+33 (0)6 12-34.56.78");
    expect((await api.call("getMyContact")).json.phone).toBe("+33 (0)6 12-34.56.78");
    const search = await t.db.query<{ search_text: string }>("SELECT search_text FROM members WHERE id = $1", [member.id]);
    expect(search.rows[0]!.search_text).toContain("330612345678");
    expect((await api.call("setMyPhone", { body: { phone: null } })).json.phone).toBeNull();
    expect((await api.call("setMyPhone", { body: { phone: "   " } })).json.phone).toBeNull();
  });

  it("is refused with its reason: other characters, too few or too many digits", async () => {
    const { api } = await person();
    await api.call("setMyPhone", { body: { phone: "06 12 34 56 78" } });
    for (const [phone, msgid] of [
      ["call me maybe", M.phoneCharacters],
      ["06 12 34 56 78 ext. 5", M.phoneCharacters],
      ["12345", M.phoneDigits],
      ["+1 234 567 890 123 456 789 01", M.phoneDigits],
    ] as const) {
      const r = await api.call("setMyPhone", { body: { phone } });
      expect(r.status, phone).toBe(400);
      expect(r.json.error.msgid).toBe(msgid);
      expect(r.json.error.fields).toHaveProperty("phone");
    }
    expect((await api.call("getMyContact")).json.phone).toBe("06 12 34 56 78");
  });
});

describe("photo", () => {
  it("a JPEG is kept and served to any signed-in member with its type, for good at its versioned address", async () => {
    const me = await person();
    const other = await person();
    expect(TINY_JPEG.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect((await me.api.call("getMyContact")).json.photoUrl).toBeNull();
    const up = await me.api.call("uploadMyPhoto", { body: { data: TINY_JPEG.toString("base64") } });
    expect(up.status, up.text).toBe(200);
    const url = up.json.photoUrl!;
    expect(url).toMatch(new RegExp(`^/api/members/${me.member.id}/photo\\?v=\\d+$`));

    const seen = await photoOf(url, other.token);
    expect(seen.status).toBe(200);
    expect(seen.headers.get("content-type")).toBe("image/jpeg");
    expect(seen.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    expect(Buffer.from(await seen.arrayBuffer())).toEqual(TINY_JPEG);
    // The same bytes are not sent twice; without its version the address is checked each time.
    const etag = seen.headers.get("etag")!;
    expect((await photoOf(url, other.token, { "if-none-match": etag })).status).toBe(304);
    expect((await photoOf(url.replace(/\?.*/, ""), other.token)).headers.get("cache-control")).toBe("private, no-cache");
    // Members only.
    expect((await photoOf(url, undefined)).status).toBe(401);

    // A new photo (a PNG this time) is a new address.
    const again = await me.api.call("uploadMyPhoto", { body: { data: TINY_PNG.toString("base64") } });
    expect(again.json.photoUrl).not.toBe(url);
    const png = await photoOf(again.json.photoUrl!, other.token);
    expect(png.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await png.arrayBuffer())).toEqual(TINY_PNG);
  });

  it("a WebP is kept; anything else is refused by its bytes, whatever it claims", async () => {
    const { api } = await person();
    const webp = Buffer.concat([Buffer.from("RIFF"), Buffer.from([26, 0, 0, 0]), Buffer.from("WEBPVP8L"), Buffer.alloc(14)]);
    expect((await api.call("uploadMyPhoto", { body: { data: webp.toString("base64") } })).status).toBe(200);
    for (const bytes of [
      Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;", "latin1"),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      Buffer.from("%PDF-1.7\n"),
      TINY_JPEG.subarray(1),
    ]) {
      const r = await api.call("uploadMyPhoto", { body: { data: bytes.toString("base64") } });
      expect(r.status).toBe(400);
      expect(r.json.error.msgid).toBe(SM.photoType);
    }
    // The WebP stays.
    const url = (await api.call("getMyContact")).json.photoUrl!;
    expect((await photoOf(url, api.token)).headers.get("content-type")).toBe("image/webp");
  });

  it("past 64 KB is refused, saying the limit", async () => {
    const { api } = await person();
    const big = Buffer.concat([TINY_JPEG, Buffer.alloc(PHOTO_MAX_BYTES + 1 - TINY_JPEG.length)]);
    const r = await api.call("uploadMyPhoto", { body: { data: big.toString("base64") } });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ msgid: SM.photoTooLarge, values: { max: 64 } });
    // Far past it, the body itself is too large: still the client's fault, never a 500.
    const huge = await api.call("uploadMyPhoto", { body: { data: Buffer.alloc(300 * 1024).toString("base64") } });
    expect(huge.status).toBeGreaterThanOrEqual(400);
    expect(huge.status).toBeLessThan(500);
    expect((await api.call("getMyContact")).json.photoUrl).toBeNull();
  });

  it("is removed: the profile says none and its address answers 404", async () => {
    const me = await person();
    const other = await person();
    const url = (await me.api.call("uploadMyPhoto", { body: { data: TINY_PNG.toString("base64") } })).json.photoUrl!;
    const r = await me.api.call("removeMyPhoto");
    expect(r.status).toBe(200);
    expect(r.json.photoUrl).toBeNull();
    expect((await photoOf(url, other.token)).status).toBe(404);
  });

  it("comes with the member in the recipient search (favourites, a search by name)", async () => {
    const backend = await createBackend(t.db, { kind: "custodial", symbol: "PH" });
    const me = await person("Photographer");
    const friend = await person("Photogenic");
    await openCustodialWallet(t.db, backend, me.member.id, "active");
    await openCustodialWallet(t.db, backend, friend.member.id, "active");
    const url = (await friend.api.call("uploadMyPhoto", { body: { data: TINY_PNG.toString("base64") } })).json.photoUrl;
    await me.api.call("setFavorite", { params: { memberId: Number(friend.member.id) } });
    const favorites = await me.api.call("searchRecipients", { query: { q: "" } });
    expect(favorites.json.rows.map((r) => [r.memberId, r.photoUrl])).toEqual([[Number(friend.member.id), url]]);
    const found = await me.api.call("searchRecipients", { query: { q: "photogenic" } });
    expect(found.json.rows[0]!.photoUrl).toBe(url);
  });
});

describe("e-mail address", () => {
  it("changes only once the link sent to the new address is confirmed; the old address is told", async () => {
    const me = await person();
    const old = me.member.email;
    const next = uniqueEmail("new");
    const r = await me.api.call("requestEmailChange", { body: { email: ` ${next.toUpperCase()} `, password: TEST_PASSWORD } });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ email: old, pendingEmail: next });
    const [mail] = mailsTo(next);
    expect(mail!.subject).toBe("Confirm your new e-mail address");
    expect(mailsTo(old)).toEqual([]);
    const token = linkToken(mail!);

    // Nothing changes before the link is confirmed: not by asking, not by opening the page.
    expect(await emailOf(me.member)).toBe(old);
    const page = await openLink(token);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.text).toContain(next);
    expect(page.text).toContain('<form method="post"');
    expect(await emailOf(me.member)).toBe(old);
    const wrongLogin = await http(t.server.baseUrl, "POST", buildPath("login"), { body: { login: next, password: TEST_PASSWORD } });
    expect(wrongLogin.status).toBe(401);

    const done = await confirmLink(token);
    expect(done.status).toBe(200);
    expect(done.text).toContain(`your e-mail address is now ${next}`);
    expect(await emailOf(me.member)).toBe(next);
    const profile = (await me.api.call("getMyContact")).json;
    expect(profile).toMatchObject({ email: next, pendingEmail: null });
    expect(mailsTo(old).map((m) => m.subject)).toEqual(["Your e-mail address was changed"]);
    expect(mailsTo(old)[0]!.text).toContain(next);
    const login = await http(t.server.baseUrl, "POST", buildPath("login"), { body: { login: next, password: TEST_PASSWORD } });
    expect(login.status).toBe(200);
    const audit = await t.db.query("SELECT action, details FROM audit_log WHERE subject = $1", [`member:${me.member.id}`]);
    expect(audit.rows).toEqual([{ action: "member.email_changed", details: { from: old, to: next } }]);

    // The link is single-use.
    const twice = await confirmLink(token);
    expect(twice.status).toBe(400);
    expect(twice.text).toContain("This link is not valid");
  });

  it("writes to a French member in French, both the link to the new address and the notice to the old one; the password's mail too", async () => {
    const me = await person();
    await t.db.query("UPDATE members SET language = 'fr-FR' WHERE id = $1", [me.member.id]);
    const old = me.member.email;
    const next = uniqueEmail("nouveau");
    expect((await me.api.call("requestEmailChange", { body: { email: next, password: TEST_PASSWORD } })).status).toBe(200);
    const [mail] = mailsTo(next);
    expect(mail!.subject).toBe("Confirmez votre nouvelle adresse e-mail");
    expect(mail!.text.startsWith(`Bonjour member,\n\nVous avez demandé à utiliser cette adresse pour votre compte à la place de ${old}.\n`)).toBe(true);
    expect((await confirmLink(linkToken(mail!))).status).toBe(200);
    expect(mailsTo(old).map((m) => m.subject)).toEqual(["Votre adresse e-mail a été changée"]);
    expect(mailsTo(old)[0]!.text).toContain(`L'adresse e-mail de votre compte est désormais ${next}`);
    const changed = await me.api.call("changePassword", { body: { currentPassword: TEST_PASSWORD, newPassword: "Tout-Nouveau-Mot-7" } });
    expect(changed.status, changed.text).toBe(200);
    expect(mailsTo(next).map((m) => m.subject)).toEqual(["Confirmez votre nouvelle adresse e-mail", "Votre mot de passe a été changé"]);
    expect(mailsTo(next)[1]!.text).toContain("Si vous ne l'avez pas changé, demandez un nouveau mot de passe sans attendre");
  });

  it("is refused with its reason: a wrong password, no address, the same address, one another member holds", async () => {
    const me = await person();
    const other = await person();
    const before = sent.length;
    const cases = [
      [{ email: uniqueEmail("x"), password: "not the password" }, 403, SM.wrongPassword],
      [{ email: "not an address", password: TEST_PASSWORD }, 400, M.invalidEmail],
      [{ email: me.member.email.toUpperCase(), password: TEST_PASSWORD }, 400, SM.emailUnchanged],
      [{ email: other.member.email, password: TEST_PASSWORD }, 409, SM.emailTakenByAnother],
    ] as const;
    for (const [body, status, msgid] of cases) {
      const r = await me.api.call("requestEmailChange", { body });
      expect(r.status, body.email).toBe(status);
      expect(r.json.error.msgid).toBe(msgid);
    }
    expect(sent.length).toBe(before);
    expect((await me.api.call("getMyContact")).json.pendingEmail).toBeNull();
  });

  it("says so when the link cannot be e-mailed, and nothing waits", async () => {
    const me = await person();
    const r = await me.api.call("requestEmailChange", { body: { email: uniqueEmail("bounce"), password: TEST_PASSWORD } });
    expect(r.status).toBe(409);
    expect(r.json.error.msgid).toBe(SM.mailNotSent);
    expect((await me.api.call("getMyContact")).json.pendingEmail).toBeNull();
  });

  it("a link expires, and a newer one voids the older", async () => {
    const me = await person();
    const first = uniqueEmail("first");
    await me.api.call("requestEmailChange", { body: { email: first, password: TEST_PASSWORD } });
    const second = uniqueEmail("second");
    await me.api.call("requestEmailChange", { body: { email: second, password: TEST_PASSWORD } });
    expect((await confirmLink(linkToken(mailsTo(first)[0]!))).status).toBe(400);
    // A day later, the newer one has expired too.
    await t.db.query("UPDATE email_changes SET expires_at = now() - interval '1 second' WHERE member_id = $1", [me.member.id]);
    const token = linkToken(mailsTo(second)[0]!);
    expect((await openLink(token)).status).toBe(400);
    expect((await confirmLink(token)).status).toBe(400);
    expect(await emailOf(me.member)).toBe(me.member.email);
    expect((await me.api.call("getMyContact")).json.pendingEmail).toBeNull();
  });

  it("is refused when another member took the address meanwhile, and the link stays for when it is free again", async () => {
    const me = await person();
    const next = uniqueEmail("contested");
    await me.api.call("requestEmailChange", { body: { email: next, password: TEST_PASSWORD } });
    const token = linkToken(mailsTo(next)[0]!);
    const squatter = await seedMember(t.db, { email: next });
    const r = await confirmLink(token);
    expect(r.status).toBe(409);
    expect(r.text).toContain("This address is already taken");
    expect(await emailOf(me.member)).toBe(me.member.email);
    // The other member changes theirs: the link still works.
    await t.db.query("UPDATE members SET email = $2 WHERE id = $1", [squatter.id, uniqueEmail("moved")]);
    expect((await confirmLink(token)).status).toBe(200);
    expect(await emailOf(me.member)).toBe(next);
  });

  it("voids a password reset link sent to the old address", async () => {
    const me = await person();
    await t.db.query("INSERT INTO password_resets (token_hash, member_id, expires_at) VALUES ('\\x01', $1, now() + interval '1 hour')", [me.member.id]);
    const next = uniqueEmail("after-reset");
    await me.api.call("requestEmailChange", { body: { email: next, password: TEST_PASSWORD } });
    expect((await confirmLink(linkToken(mailsTo(next)[0]!))).status).toBe(200);
    const resets = await t.db.query("SELECT 1 FROM password_resets WHERE member_id = $1 AND used_at IS NULL", [me.member.id]);
    expect(resets.rowCount).toBe(0);
  });
});

describe("password", () => {
  it("a wrong current password is refused (and counted like a login: guessing is stopped)", async () => {
    const me = await person();
    const body = { currentPassword: "not the password", newPassword: "Brand-New-Pass-7" };
    const first = await me.api.call("changePassword", { body });
    expect(first.status).toBe(403);
    expect(first.json.error.msgid).toBe(SM.wrongPassword);
    let last = first;
    for (let i = 0; i < 4; i++) last = await me.api.call("changePassword", { body });
    expect(last.status).toBe(429);
    expect(last.json.error.msgid).toBe(SM.rateLimited);
    // Nothing changed: the old password still signs in (once the window is past).
    await t.db.query("DELETE FROM rate_limits WHERE bucket LIKE $1", [`%${me.member.email}`]);
    expect((await http(t.server.baseUrl, "POST", buildPath("login"), { body: { login: me.member.email, password: TEST_PASSWORD } })).status).toBe(200);
  });

  it("a new password that breaks the rules is refused before the current one is even checked", async () => {
    const me = await person();
    const r = await me.api.call("changePassword", { body: { currentPassword: "not the password", newPassword: "short" } });
    expect(r.status).toBe(400);
    expect(r.json.error.fields).toEqual({ newPassword: { msgid: M.passwordTooShort, values: { n: 8 } } });
  });

  it("changes it, signs every other session out and keeps this one; the member is told by e-mail", async () => {
    const me = await person();
    const phone = new Api(t.server.baseUrl, await memberToken(t.db, me.member.id));
    const laptop = new Api(t.server.baseUrl, await memberToken(t.db, me.member.id));
    const r = await me.api.call("changePassword", { body: { currentPassword: TEST_PASSWORD, newPassword: "Brand-New-Pass-7" } });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({ ok: true, otherSessionsEnded: 2 });
    expect((await me.api.call("getMyContact")).status).toBe(200);
    expect((await phone.call("getMyContact")).status).toBe(401);
    expect((await laptop.call("getMyContact")).status).toBe(401);
    const login = (password: string) => http(t.server.baseUrl, "POST", buildPath("login"), { body: { login: me.member.email, password } });
    expect((await login(TEST_PASSWORD)).status).toBe(401);
    expect((await login("Brand-New-Pass-7")).status).toBe(200);
    expect(mailsTo(me.member.email).map((m) => m.subject)).toEqual(["Your password was changed"]);
    const audit = await t.db.query("SELECT action, details FROM audit_log WHERE subject = $1", [`member:${me.member.id}`]);
    expect(audit.rows).toEqual([{ action: "member.password_changed", details: { sessionsEnded: 2 } }]);
  });
});
