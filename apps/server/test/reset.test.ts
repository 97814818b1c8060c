import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidCredentialsError, LoginRequiredError, MutuaClient, RefusedError } from "@mutua/client";
import { buildPath } from "@mutua/domain";
import { outboxMailer, smtpMailer } from "../src/services/platform/mail";
import { tokenHash } from "../src/services/members/sessions";
import { http, seedMember, Session, type ErrorJson, type SeededMember, type TestServer } from "./helpers";
import { setupServerTest } from "./setup";

const PUBLIC_URL = "http://wallet.example.test";
const FROM = "Mutua Test <no-reply@wallet.example.test>";
const UNKNOWN = "Unknown user or email. Please make sure to provide a valid username or email.";
// Limits are tested in rate-limit.test.ts; several resets per member must not trip them here.
const NO_LIMITS = { RATE_LIMIT_RESET_IP_MAX: "10000", RATE_LIMIT_RESET_ACCOUNT_MAX: "10000" };

interface Received {
  envelopeFrom: string;
  envelopeTo: string[];
  raw: string;
}

let smtp: SMTPServer;
let smtpPort: number;
const inbox: Received[] = [];
const waiting: (() => void)[] = [];

const t = setupServerTest({ server: false });
let server: TestServer;
const tmpDirs: string[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    // A plain local server: no TLS to negotiate and no login, like a relay on localhost.
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        inbox.push({
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        waiting.splice(0).forEach((w) => w());
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once("error", reject);
    smtp.listen(0, "127.0.0.1", () => resolve());
  });
  smtpPort = (smtp.server.address() as AddressInfo).port;

  server = await t.startServer({
    env: { PUBLIC_URL, MAIL_FROM: FROM, ...NO_LIMITS },
    mailer: smtpMailer(`smtp://127.0.0.1:${smtpPort}`, FROM),
  });
});

afterAll(async () => {
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true });
});

/** Waits for the next message delivered to `to` after `from` messages were already in the inbox. */
async function mailTo(to: string, from: number, ms = 10_000): Promise<Received> {
  const end = Date.now() + ms;
  for (;;) {
    const m = inbox.slice(from).find((x) => x.envelopeTo.includes(to));
    if (m) return m;
    const left = end - Date.now();
    if (left <= 0) throw new Error(`no mail to ${to} within ${ms} ms`);
    // Woken by the next message the SMTP server receives, or by the deadline, whichever comes first.
    let deadline: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      waiting.push(resolve);
      deadline = setTimeout(resolve, left);
    });
    clearTimeout(deadline);
  }
}

/** Headers and decoded text of a single-part message (nodemailer uses quoted-printable for long lines). */
function parseMail(raw: string): { headers: Record<string, string>; text: string } {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const headers: Record<string, string> = {};
  for (const line of head.split("\r\n")) {
    const i = line.indexOf(":");
    headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = raw.slice(split + 4);
  const cte = (headers["content-transfer-encoding"] ?? "7bit").toLowerCase();
  if (cte === "quoted-printable") {
    body = Buffer.from(
      body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      "latin1",
    ).toString("utf8");
  } else if (cte === "base64") {
    body = Buffer.from(body, "base64").toString("utf8");
  }
  return { headers, text: body.replace(/\r\n/g, "\n") };
}

function resetToken(text: string, publicUrl = PUBLIC_URL): string {
  const esc = publicUrl.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const m = new RegExp(`${esc}/reset-password\\?token=([A-Za-z0-9_-]+)`).exec(text);
  if (!m) throw new Error(`no reset link in:\n${text}`);
  return m[1]!;
}

/** Asks for a reset through the API and returns the token read from the mail received over SMTP. */
async function requestReset(m: SeededMember, typed = m.email, s: TestServer = server): Promise<{ token: string; mail: ReturnType<typeof parseMail> }> {
  const before = inbox.length;
  const c = new MutuaClient({ baseUrl: s.baseUrl });
  expect(await c.call("resetPassword", { body: { email: typed } })).toEqual({ ok: true });
  const mail = parseMail((await mailTo(m.email, before)).raw);
  return { token: resetToken(mail.text), mail };
}

describe("password reset over SMTP", () => {
  it("mails a link; the new password then works, the old one, the link and open sessions do not", async () => {
    const m = await seedMember(t.db, { firstName: "Basile" });
    const open = new Session(server.baseUrl);
    await open.login(m.email, m.password);

    const before = inbox.length;
    const { token, mail } = await requestReset(m, `  ${m.email.toUpperCase()} `);
    expect(inbox.length - before).toBe(1);
    const envelope = inbox[inbox.length - 1]!;
    expect(envelope.envelopeTo).toEqual([m.email]);
    expect(envelope.envelopeFrom).toBe("no-reply@wallet.example.test");
    expect(mail.headers.subject).toBe("Choose a new password");
    expect(mail.headers.from).toContain("no-reply@wallet.example.test");
    expect(mail.text).toContain("Hello Basile,");
    expect(mail.text).toContain(`${PUBLIC_URL}/reset-password?token=${token}`);
    expect(token.length).toBeGreaterThanOrEqual(40);
    // Only a hash of the token is stored.
    const { rows } = await t.db.query<{ token_hash: Buffer }>("SELECT token_hash FROM password_resets WHERE member_id = $1", [m.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash.toString("utf8")).not.toContain(token);

    const c = new MutuaClient({ baseUrl: server.baseUrl });
    expect(await c.call("setNewPassword", { body: { token, password: "Changed123!" } })).toEqual({ ok: true });

    await expect(new Session(server.baseUrl).login(m.email, m.password)).rejects.toBeInstanceOf(InvalidCredentialsError);
    const fresh = new Session(server.baseUrl);
    await fresh.login(m.email, "Changed123!");
    expect((await fresh.client.call("getMyContact")).email).toBe(m.email);

    await expect(open.client.call("getMyContact")).rejects.toBeInstanceOf(LoginRequiredError);
    expect(open.loginRequiredCalls).toBe(1);

    const again = (await c.call("setNewPassword", { body: { token, password: "Another123!" } }).catch((e: unknown) => e)) as RefusedError;
    expect(again).toBeInstanceOf(RefusedError);
    expect([again.status, again.code]).toEqual([400, "invalid_reset_token"]);
    await fresh.login(m.email, "Changed123!");
  });

  it("keeps the link usable when the new password is refused as too weak", async () => {
    const m = await seedMember(t.db);
    const { token } = await requestReset(m);
    const r = await http<ErrorJson>(server.baseUrl, "POST", buildPath("setNewPassword"), { body: { token, password: "weak" } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe("validation_failed");
    expect(r.json.error.fields).toEqual({ password: { msgid: "Password must be at least {n} characters long", values: { n: 8 } } });
    await new MutuaClient({ baseUrl: server.baseUrl }).call("setNewPassword", { body: { token, password: "Strong123!" } });
    await new Session(server.baseUrl).login(m.email, "Strong123!");
  });

  it("a used link also kills the other links sent before it", async () => {
    const m = await seedMember(t.db);
    const first = await requestReset(m);
    const second = await requestReset(m);
    expect(second.token).not.toBe(first.token);
    const c = new MutuaClient({ baseUrl: server.baseUrl });
    await c.call("setNewPassword", { body: { token: second.token, password: "Second123!" } });
    const err = (await c.call("setNewPassword", { body: { token: first.token, password: "First1234!" } }).catch((e: unknown) => e)) as RefusedError;
    expect(err.code).toBe("invalid_reset_token");
    await new Session(server.baseUrl).login(m.email, "Second123!");
  });

  it("refuses a made-up token", async () => {
    const r = await http<ErrorJson>(server.baseUrl, "POST", buildPath("setNewPassword"), { body: { token: "A".repeat(43), password: "Strong123!" } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe("invalid_reset_token");
  });

  it("refuses an expired link, and the password stays as it was", async () => {
    const quick = await t.startServer({
      env: { PUBLIC_URL, RESET_TOKEN_TTL_SECONDS: "1", ...NO_LIMITS },
      mailer: smtpMailer(`smtp://127.0.0.1:${smtpPort}`, FROM),
    });
    const m = await seedMember(t.db);
    const { token } = await requestReset(m, m.email, quick);
    // Two seconds later, as the link sees it: its row is aged in SQL rather than waited out.
    await t.db.query(
      "UPDATE password_resets SET created_at = created_at - interval '2 seconds', expires_at = expires_at - interval '2 seconds' WHERE token_hash = $1",
      [tokenHash(token)],
    );
    const r = await http<ErrorJson>(quick.baseUrl, "POST", buildPath("setNewPassword"), { body: { token, password: "Late1234!" } });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: "invalid_reset_token", msgid: "This password reset link is invalid or has expired. Please ask for a new one." });
    await new Session(server.baseUrl).login(m.email, m.password);
  });

  it("answers 404 unknown_user for an address that is no member's, and sends nothing", async () => {
    const before = inbox.length;
    const r = await http<ErrorJson>(server.baseUrl, "POST", buildPath("resetPassword"), { body: { email: "nobody-here@example.org" } });
    expect(r.status).toBe(404);
    expect(r.json.error).toMatchObject({ code: "unknown_user", message: UNKNOWN, msgid: UNKNOWN });
    const err = (await new MutuaClient({ baseUrl: server.baseUrl })
      .call("resetPassword", { body: { email: "Nobody-Here@example.org" } })
      .catch((e: unknown) => e)) as RefusedError;
    expect(err).toBeInstanceOf(RefusedError);
    expect([err.status, err.code, err.message]).toEqual([404, "unknown_user", UNKNOWN]);
    // The mail is sent before the API answers, so anything sent would already be here.
    expect(inbox.length).toBe(before);
  });

  it("is refused with 403 when reset is disabled", async () => {
    const off = await t.startServer({ env: { ALLOW_RESET_PASSWORD: "false" } });
    const m = await seedMember(t.db);
    const r = await http<ErrorJson>(off.baseUrl, "POST", buildPath("resetPassword"), { body: { email: m.email } });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe("reset_disabled");
  });
});

describe("outbox mailer", () => {
  it("writes the mail as a private .eml file holding a working link", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-test-outbox-"));
    tmpDirs.push(dir);
    const outbox = path.join(dir, "outbox");
    const logged: string[] = [];
    const s = await t.startServer({ env: { PUBLIC_URL, ...NO_LIMITS }, mailer: outboxMailer(outbox, FROM, (l) => logged.push(l)) });
    const m = await seedMember(t.db, { firstName: "Olga" });
    await new MutuaClient({ baseUrl: s.baseUrl }).call("resetPassword", { body: { email: m.email } });

    const files = fs.readdirSync(outbox);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const file = path.join(outbox, files[0]!);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const eml = fs.readFileSync(file, "utf8");
    expect(eml).toContain(`From: ${FROM}\r\n`);
    expect(eml).toContain(`To: ${m.email}\r\n`);
    expect(eml).toContain("Subject: Choose a new password\r\n");
    expect(eml).toContain("Hello Olga,");
    const token = resetToken(eml);
    // The log names the file, never the link: a service log is read by more people than the mailbox.
    expect(logged.join("\n")).toContain(file);
    expect(logged.join("\n")).not.toContain(token);

    await new MutuaClient({ baseUrl: s.baseUrl }).call("setNewPassword", { body: { token, password: "Outbox123!" } });
    await new Session(s.baseUrl).login(m.email, "Outbox123!");
  });

  it("prints the mail's text in the log only when asked to, as the demo does", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-test-outbox-"));
    tmpDirs.push(dir);
    const logged: string[] = [];
    await outboxMailer(dir, FROM, (l) => logged.push(l), true).send({ to: "a@example.org", subject: "S", text: "the link https://x/reset?token=abc" });
    expect(logged.join("\n")).toContain("token=abc");
  });
});

describe("choosing a password through a link, by anyone", () => {
  it("counts made-up tokens per address of the caller, refusing each before hashing the password: 429 past the budget", async () => {
    // Its own caller's address (TRUST_PROXY), so the file's other tests count elsewhere.
    const s = await t.startServer({ env: { PUBLIC_URL, RATE_LIMIT_RESET_IP_MAX: "3", TRUST_PROXY: "1" }, mailer: { send: async () => {} } });
    const from = { "x-forwarded-for": "203.0.113.77" };
    const body = { token: "made-up-token", password: "Longer-Pass-1" };
    for (let i = 0; i < 3; i++) {
      const r = await http<ErrorJson>(s.baseUrl, "POST", buildPath("setNewPassword"), { body, headers: from });
      expect([r.status, r.json.error.code]).toEqual([400, "invalid_reset_token"]);
    }
    const blocked = await http<ErrorJson>(s.baseUrl, "POST", buildPath("setNewPassword"), { body, headers: from });
    expect([blocked.status, blocked.json.error.code]).toEqual([429, "rate_limited"]);
  });
});
