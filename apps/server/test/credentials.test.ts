import { describe, expect, it } from "vitest";
import type { Mail, Mailer } from "../src/services/platform/mail";
import { ORIGIN, SoftAuthenticator } from "./soft-authenticator";
import { Api, memberToken, seedMember, TEST_PASSWORD } from "./helpers";
import { setupServerTest } from "./setup";

/**
 * A stolen session token must not mint lasting credentials. Adding a
 * passkey or a device login needs a fresh proof of the password or of a passkey; a password
 * reset ends every device login and session; the member lists and removes their credentials;
 * each addition and removal is in the audit log and e-mailed to them.
 */
const CHROME_ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

const sent: Mail[] = [];
const mailer: Mailer = {
  async send(m) {
    sent.push(m);
  },
};
const t = setupServerTest({ server: { env: { PUBLIC_URL: ORIGIN, RATE_LIMIT_RESET_ACCOUNT_MAX: "100" }, mailer } });

const mailsTo = (email: string) => sent.filter((m) => m.to === email);
const count = async (sql: string, params: unknown[]) => (await t.db.query<{ n: number }>(sql, params)).rows[0]!.n;
const credentialsOf = async (id: bigint) =>
  (await count("SELECT count(*)::int AS n FROM passkeys WHERE member_id = $1", [id])) +
  (await count("SELECT count(*)::int AS n FROM device_logins WHERE member_id = $1", [id]));

/** A member signed in by password through the API: a fresh session, as the app has right after login. */
async function signedInByPassword() {
  const m = await seedMember(t.db);
  const r = await new Api(t.server.baseUrl).call("login", { body: { login: m.email, password: TEST_PASSWORD } });
  expect(r.status).toBe(200);
  return { ...m, api: new Api(t.server.baseUrl, r.json.token) };
}

/** Makes the session's last proof older than the step-up window, as time would. */
async function ageProof(memberId: bigint) {
  await t.db.query("UPDATE sessions SET reauth_at = now() - interval '1 hour' WHERE member_id = $1", [memberId]);
}

async function enrolPasskey(api: Api, auth = new SoftAuthenticator()) {
  const opts = await api.call("passkeyRegistrationOptions");
  if (opts.status !== 200) return opts;
  return api.call("registerPasskey", { body: { challengeId: opts.json.challengeId, response: auth.register(opts.json.options) } });
}

describe("step-up before adding a credential", () => {
  it("a stolen session token alone mints neither a device login nor a passkey", async () => {
    const victim = await seedMember(t.db);
    // What an attacker holds: the token of a session opened long ago, nothing else.
    const stolen = new Api(t.server.baseUrl, await memberToken(t.db, victim.id));
    const device = await stolen.call("createDeviceLogin");
    expect(device.status).toBe(403);
    expect(device.json.error).toMatchObject({ code: "reauth_required", message: "Please confirm your password to continue." });
    expect((await stolen.call("passkeyRegistrationOptions")).status).toBe(403);
    expect((await enrolPasskey(stolen)).status).toBe(403);
    expect(await credentialsOf(victim.id)).toBe(0);
    expect(mailsTo(victim.email)).toEqual([]);
    // Guessing the password is counted like logins: the attacker gets nowhere and the session stays.
    const guess = await stolen.call("confirmPassword", { body: { password: "Guess1234!" } });
    expect(guess.status).toBe(403);
    expect(guess.json.error.code).toBe("reauth_failed");
    expect((await stolen.call("getMyContact")).status).toBe(200);
    expect((await stolen.call("createDeviceLogin")).status).toBe(403);
  });

  it("a password login may add one at once; an older session must confirm the password first", async () => {
    const m = await signedInByPassword();
    expect((await m.api.call("createDeviceLogin")).status).toBe(200);
    await ageProof(m.id);
    expect((await m.api.call("createDeviceLogin")).status).toBe(403);
    const confirmed = await m.api.call("confirmPassword", { body: { password: TEST_PASSWORD } });
    expect(confirmed.status).toBe(200);
    expect(Date.parse(confirmed.json.freshUntil)).toBeGreaterThan(Date.now());
    expect((await m.api.call("createDeviceLogin")).status).toBe(200);
    expect(await credentialsOf(m.id)).toBe(2);
  });

  it("one of the member's own passkeys also confirms; another member's does not", async () => {
    const m = await signedInByPassword();
    const auth = new SoftAuthenticator();
    expect((await enrolPasskey(m.api, auth)).status).toBe(200);
    await ageProof(m.id);
    expect((await m.api.call("createDeviceLogin")).status).toBe(403);

    const other = await signedInByPassword();
    const theirs = new SoftAuthenticator();
    expect((await enrolPasskey(other.api, theirs)).status).toBe(200);
    const anon = new Api(t.server.baseUrl);
    const o1 = await anon.call("passkeyLoginOptions", { body: {} });
    const wrong = await m.api.call("confirmPasskey", { body: { challengeId: o1.json.challengeId, response: theirs.assert(o1.json.options) } });
    expect(wrong.status).toBe(403);
    expect(wrong.json.error.code).toBe("reauth_failed");
    expect((await m.api.call("createDeviceLogin")).status).toBe(403);

    const o2 = await anon.call("passkeyLoginOptions", { body: { credentialId: auth.id } });
    expect((await m.api.call("confirmPasskey", { body: { challengeId: o2.json.challengeId, response: auth.assert(o2.json.options) } })).status).toBe(200);
    expect((await m.api.call("createDeviceLogin")).status).toBe(200);
  });
});

describe("the member's devices", () => {
  it("lists passkeys and device logins with name, dates and this device, removes them, and logs and mails each change", async () => {
    const m = await signedInByPassword();
    const auth = new SoftAuthenticator();
    const opts = await m.api.call("passkeyRegistrationOptions");
    const reg = await new Api(t.server.baseUrl, m.api.token).call("registerPasskey", {
      body: { challengeId: opts.json.challengeId, response: auth.register(opts.json.options) },
    });
    expect(reg.status).toBe(200);
    // Added from a phone's browser: the list names it so.
    const phone = await fetch(`${t.server.baseUrl}/api/device-logins`, {
      method: "POST",
      headers: { authorization: `Bearer ${m.api.token}`, "user-agent": CHROME_ANDROID },
    });
    expect(phone.status).toBe(200);
    const device = (await phone.json()) as { credentialId: string; secret: string };

    // The device signs in: its session is "this device" in the list, and its last use is shown.
    const onPhone = await new Api(t.server.baseUrl).call("deviceLogin", { body: device });
    expect(onPhone.status).toBe(200);
    const list = await new Api(t.server.baseUrl, onPhone.json.token).call("listDevices");
    expect(list.status).toBe(200);
    expect(list.json).toHaveLength(2);
    const byId = new Map(list.json.map((d) => [d.id, d]));
    expect(byId.get(device.credentialId)).toMatchObject({ kind: "device", name: "Chrome · Android", current: true });
    expect(byId.get(device.credentialId)!.lastUsedAt).not.toBeNull();
    expect(byId.get(auth.id)).toMatchObject({ kind: "passkey", current: false, lastUsedAt: null });
    expect(Date.parse(byId.get(auth.id)!.createdAt)).not.toBeNaN();

    // Nobody else sees them.
    const other = await signedInByPassword();
    expect((await other.api.call("listDevices")).json).toEqual([]);

    expect((await m.api.call("deletePasskey", { params: { credentialId: device.credentialId } })).status).toBe(200);
    expect((await new Api(t.server.baseUrl).call("deviceLogin", { body: device })).status).toBe(401);
    // The session the removed device had opened ends with it; the member's own goes on.
    expect((await new Api(t.server.baseUrl, onPhone.json.token).call("getMyContact")).status).toBe(401);
    expect((await m.api.call("getMyContact")).status).toBe(200);
    expect((await m.api.call("listDevices")).json.map((d) => d.id)).toEqual([auth.id]);

    const { rows } = await t.db.query<{ action: string; details: { kind: string } }>("SELECT action, details FROM audit_log WHERE subject = $1 ORDER BY id", [
      `member:${m.id}`,
    ]);
    expect(rows.map((r) => [r.action, r.details.kind])).toEqual([
      ["credential.add", "passkey"],
      ["credential.add", "device"],
      ["credential.remove", "device"],
    ]);
    const subjects = mailsTo(m.email).map((x) => x.subject);
    expect(subjects).toEqual(["A new sign-in was added to your account", "A new sign-in was added to your account", "A sign-in was removed from your account"]);
    expect(mailsTo(m.email)[1]!.text).toContain("(Chrome · Android)");
  });

  it("tells a member who reads the app in French of a sign-in added and removed in French, the time written the French way", async () => {
    const m = await signedInByPassword();
    await t.db.query("UPDATE members SET language = 'fr-FR' WHERE id = $1", [m.id]);
    const device = (await m.api.call("createDeviceLogin")).json;
    expect((await m.api.call("deletePasskey", { params: { credentialId: device.credentialId } })).status).toBe(200);
    const [added, removed] = mailsTo(m.email);
    expect(added!.subject).toBe("Une nouvelle connexion a été ajoutée à votre compte");
    expect(added!.text).toMatch(/^Bonjour .+,\n\nUne connexion par appareil(?: \(.+\))? a été ajoutée à votre compte le \d{1,2} \S+ \d{4} à \d{2}:\d{2} UTC\./);
    expect(removed!.subject).toBe("Une connexion a été retirée de votre compte");
    expect(removed!.text).toContain("elle ne permet plus de se connecter");
  });

  it("a password reset ends every session and device login; passkeys stay listed, and the member is told", async () => {
    const m = await signedInByPassword();
    const auth = new SoftAuthenticator();
    expect((await enrolPasskey(m.api, auth)).status).toBe(200);
    const device = (await m.api.call("createDeviceLogin")).json;
    const anon = new Api(t.server.baseUrl);
    expect((await anon.call("resetPassword", { body: { email: m.email } })).status).toBe(200);
    const link = mailsTo(m.email).find((x) => x.subject === "Choose a new password")!.text;
    const token = /token=([\w-]+)/.exec(link)![1]!;
    expect((await anon.call("setNewPassword", { body: { token, password: "Another-Pass-2" } })).status).toBe(200);

    expect((await m.api.call("getMyContact")).status).toBe(401);
    expect((await anon.call("deviceLogin", { body: device })).status).toBe(401);
    const again = await anon.call("login", { body: { login: m.email, password: "Another-Pass-2" } });
    const list = await new Api(t.server.baseUrl, again.json.token).call("listDevices");
    expect(list.json.map((d) => d.id)).toEqual([auth.id]);
    const notice = mailsTo(m.email).find((x) => x.subject === "Your password was changed")!;
    expect(notice.text).toContain("Passkeys stay");
    const { rows } = await t.db.query("SELECT details FROM audit_log WHERE subject = $1 AND action = 'password.reset'", [`member:${m.id}`]);
    expect(rows).toEqual([{ details: { deviceLoginsRemoved: 1 } }]);
  });
});
