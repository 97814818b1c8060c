import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOTIFICATION_KINDS, type NotificationKind } from "@mutua/domain";
import { OUTBOX_CHANNEL, smtpMailer } from "../src/services/platform/mail";
import { currentPosition, eventsAfter } from "../src/services/notifications/member-events";
import { claimEmail } from "../src/services/notifications/notification-deliveries";
import { notificationMail, notificationPush } from "../src/services/notifications/notification-mail";
import { retryDelaySeconds } from "../src/services/notifications/notification-worker";
import { openCustodialWallet, systemWallet, type BackendRow } from "../src/services/wallets/wallets";
import {
  Api,
  createBackend,
  createTestDatabase,
  http,
  memberToken,
  newKey,
  seedMember,
  startServer,
  topUp,
  type SeededMember,
  type TestServer,
} from "./helpers";
import { watchOutbox, type OutboxWatch } from "./outbox-watch";
import { setupServerTest } from "./setup";

/** Every kind of e-mail off, as a member starts. */
const NO_MAIL = Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, false])) as Record<NotificationKind, boolean>;

/**
 * E-mail notifications (docs/architecture.md "Live money") over a real SMTP conversation: the trigger queues a
 * message with its event when the member opted in, the workers of two instances on one database
 * send it once, in the member's language, with a one-click unsubscribe link that works without
 * signing in.
 */

const PUBLIC_URL = "https://wallet.example.test";
const FROM = "Mutua Test <no-reply@wallet.example.test>";

interface Received {
  to: string[];
  raw: string;
}

let smtp: SMTPServer;
const inbox: Received[] = [];
/** How many messages the SMTP server still refuses with 451 (a temporary failure) before accepting. */
let refuseNext = 0;
let refused = 0;
/** The addresses of the messages refused, one entry per refusal. */
const refusedTo: string[] = [];
/** While set, the SMTP server holds every message it received without answering: a slow mail server. */
let hold: Promise<void> | null = null;
let held = 0;

let one: TestServer;
let two: TestServer;
let custodial: BackendRow;
let outbox: OutboxWatch;

interface Person extends SeededMember {
  wallet: string;
  api: Api;
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        if (hold) {
          held++;
          await hold;
        }
        if (refuseNext > 0) {
          refuseNext--;
          refused++;
          refusedTo.push(...session.envelope.rcptTo.map((r) => r.address));
          return callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
        }
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once("error", reject);
    smtp.listen(0, "127.0.0.1", () => resolve());
  });
});
afterAll(async () => {
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

// Registered after the SMTP server's hooks, so that the instances are closed before it is.
const t = setupServerTest({ server: false });

beforeAll(async () => {
  const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  const env = { PUBLIC_URL, MAIL_FROM: FROM, MAIL_RETRY_BASE_SECONDS: "1" };
  await t.db.query("UPDATE association SET name = 'Demo Association'");
  outbox = watchOutbox(t.db);
  // Two instances on one database: their workers share the outbox.
  one = await t.startServer({ env, mailer: smtpMailer(smtpUrl, FROM) });
  two = await t.startServer({ env, mailer: smtpMailer(smtpUrl, FROM) });
  custodial = await createBackend(t.db, { kind: "custodial", symbol: "DL" });
});

async function person(firstName: string, lastName: string, balance = "0.00"): Promise<Person> {
  const m = await seedMember(t.db, { firstName, lastName });
  const wallet = await openCustodialWallet(t.db, custodial, m.id);
  if (balance !== "0.00") await topUp(t.db, wallet, balance);
  return { ...m, wallet, api: new Api(one.baseUrl, await memberToken(t.db, m.id)) };
}

const pay = (from: Person, to: Person, amount: string, memo = "") =>
  from.api.call("transfer", {
    body: { from: from.wallet, to: to.wallet, parts: [{ account: "main", amount }], key: newKey(), senderMemo: memo, recipientMemo: memo },
  });

async function optIn(p: Person, kinds: Partial<Record<NotificationKind, boolean>>, language?: "en-US" | "fr-FR") {
  const r = await p.api.call("setNotificationSettings", { body: { email: kinds, ...(language ? { language } : {}) } });
  expect(r.status).toBe(200);
  return r.json;
}

const mailsTo = (p: Person) => inbox.filter((m) => m.to.includes(p.email));

/** The member's queued messages, as the outbox holds them. */
async function deliveries(p: Person) {
  const { rows } = await t.db.query<{ kind: string; attempts: number; sent: boolean; gave_up: boolean; last_error: string | null }>(
    `SELECT d.kind, d.attempts, d.sent_at IS NOT NULL AS sent, d.gave_up_at IS NOT NULL AS gave_up, d.last_error
       FROM notification_deliveries d JOIN member_events e ON e.id = d.event_id WHERE e.member_id = $1 ORDER BY d.id`,
    [p.id],
  );
  return rows;
}

/** The SMTP server's answers for the address, accepted or refused: each the end of one attempt to send there. */
const answeredTo = (email: string) => inbox.filter((m) => m.to.includes(email)).length + refusedTo.filter((a) => a === email).length;

/**
 * Waits until nothing more is on its way to the member: each message queued for them sent or given
 * up (all but `leftPending`), and every attempt their rows count (one per claim, by either
 * instance) answered by the SMTP server. A second copy, had one been sent, is in the inbox by then.
 */
async function finished(p: Person, leftPending = 0) {
  await expect
    .poll(
      async () => {
        const rows = await deliveries(p);
        const attempts = rows.reduce((n, d) => n + d.attempts, 0);
        return { pending: rows.filter((d) => !d.sent && !d.gave_up).length, unanswered: Math.max(0, attempts - answeredTo(p.email)) };
      },
      { timeout: 15_000, interval: 50 },
    )
    .toEqual({ pending: leftPending, unanswered: 0 });
}

/** Waits until the member's messages are done with, and checks that `expected` of them were sent. */
async function settled(p: Person, expected: number) {
  await finished(p);
  expect((await deliveries(p)).filter((d) => d.sent).length).toBe(expected);
}

/** Before checking that nothing was sent: the workers have looked since now and found nothing left to claim, and what they claimed is answered. */
async function quiet(...people: Person[]) {
  await outbox.drained("email");
  for (const p of people) await finished(p);
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`), as nodemailer writes non-ASCII headers. */
function decodeWords(s: string): string {
  return s.replace(/=\?UTF-8\?([QB])\?([^?]*)\?=\s*(?==\?UTF-8)?/gi, (_, enc: string, text: string) =>
    enc.toUpperCase() === "B"
      ? Buffer.from(text, "base64").toString("utf8")
      : Buffer.from(
          text.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
          "latin1",
        ).toString("utf8"),
  );
}

/** Headers (decoded) and text of a single-part message. */
function parseMail(raw: string): { headers: Record<string, string>; text: string } {
  const split = raw.indexOf("\r\n\r\n");
  const headers: Record<string, string> = {};
  for (const line of raw
    .slice(0, split)
    .replace(/\r\n[ \t]+/g, " ")
    .split("\r\n")) {
    const i = line.indexOf(":");
    headers[line.slice(0, i).toLowerCase()] = decodeWords(line.slice(i + 1).trim());
  }
  let body = raw.slice(split + 4);
  const cte = (headers["content-transfer-encoding"] ?? "7bit").toLowerCase();
  if (cte === "quoted-printable")
    body = Buffer.from(
      body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      "latin1",
    ).toString("utf8");
  else if (cte === "base64") body = Buffer.from(body, "base64").toString("utf8");
  return { headers, text: body.replace(/\r\n/g, "\n") };
}

/** The unsubscribe link of the header, as a path on the test server (PUBLIC_URL is not served here). */
function unsubscribePath(mail: { headers: Record<string, string> }): string {
  const m = /^<(https:\/\/wallet\.example\.test)(\/api\/unsubscribe\?token=[\w.-]+)>$/.exec(mail.headers["list-unsubscribe"] ?? "");
  if (!m) throw new Error(`no unsubscribe link in ${JSON.stringify(mail.headers)}`);
  return m[2]!;
}

const form = (body: string) => ({ rawBody: body, headers: { "content-type": "application/x-www-form-urlencoded" } });

/** Every kind of e-mail a member may choose, none chosen (each test turns on its own). */
describe("e-mail notifications", () => {
  it("Bob opted in (in French): Alice pays, exactly one French message arrives, with a one-click unsubscribe", async () => {
    const alice = await person("Alice", "Martin", "100.00");
    const bob = await person("Bob", "Durand");
    await optIn(alice, { payment_received: true, topup_credited: true, wallet_approved: true, reconversion_paid: true });
    expect(await optIn(bob, { payment_received: true }, "fr-FR")).toEqual({
      language: "fr-FR",
      email: { ...NO_MAIL, payment_received: true },
    });
    expect((await pay(alice, bob, "2.50", "Pain")).status).toBe(200);
    await settled(bob, 1);
    expect(mailsTo(bob)).toHaveLength(1);
    const mail = parseMail(mailsTo(bob)[0]!.raw);
    expect(mail.headers.subject).toBe("Alice Martin vous a payé 2,50 DL");
    expect(mail.headers.from).toBe(FROM);
    expect(mail.text).toContain("Bonjour Bob,");
    expect(mail.text).toContain("Mémo : Pain");
    expect(mail.text).toContain(`${PUBLIC_URL}/dashboard`);
    expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    // The body's link is the header's.
    expect(mail.text).toContain(`${PUBLIC_URL}${unsubscribePath(mail)}`);
    expect(await deliveries(bob)).toEqual([{ kind: "payment_received", attempts: 1, sent: true, gave_up: false, last_error: null }]);
    // Alice's own payment is silent: no message for her, though she opted in to everything.
    expect(await deliveries(alice)).toEqual([]);
    expect(mailsTo(alice)).toEqual([]);
  });

  it("writes in the association's default language (English) to a member who never said theirs, amounts the English way", async () => {
    // A second Alice Martin (the first paid Bob above): the message says when this one joined.
    const alice = await person("Alice", "Martin", "2000.00");
    const erin = await person("Erin", "Smith");
    await optIn(erin, { payment_received: true });
    expect((await pay(alice, erin, "1234.50")).status).toBe(200);
    await settled(erin, 1);
    const mail = parseMail(mailsTo(erin)[0]!.raw);
    // Both joined this month: the day tells them apart.
    const { rows } = await t.db.query<{ joined: Date }>("SELECT created_at AS joined FROM members WHERE id = $1", [alice.id]);
    const day = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }).format(rows[0]!.joined);
    expect(mail.headers.subject).toBe(`Alice Martin (member since ${day}) paid you 1,234.50 DL`);
    expect(mail.text).toContain("Hello Erin,");
  });

  it("says a look-alike payer's hint in French too, the month or the day, by mail and by push", () => {
    const facts = { kind: "payment_received" as const, to: "x@example.org", firstName: "Bob", language: "fr-FR" as const, amount: 250n, symbol: "DL" };
    const more = { currencyName: "Demo", counterparty: "Alice Martin", memo: "" };
    expect(notificationMail({ ...facts, ...more, counterpartySince: "2024-03" }, { app: "a", unsubscribe: "u" }).subject).toBe(
      "Alice Martin (membre depuis mars 2024) vous a payé 2,50 DL",
    );
    expect(notificationPush({ ...facts, ...more, counterpartySince: "2024-03-05" }, { url: "/", tag: "1" }).body).toBe(
      "De Alice Martin (membre depuis le 5 mars 2024)",
    );
    expect(notificationMail({ ...facts, ...more, counterpartySince: null }, { app: "a", unsubscribe: "u" }).subject).toBe("Alice Martin vous a payé 2,50 DL");
  });

  it("tells a top-up credited, naming the association", async () => {
    const fay = await person("Fay", "Leroy");
    await optIn(fay, { topup_credited: true }, "fr-FR");
    await topUp(t.db, fay.wallet, "10.00");
    await settled(fay, 1);
    expect(parseMail(mailsTo(fay)[0]!.raw).headers.subject).toBe("Demo Association a crédité votre compte de 10,00 DL");
  });

  it("tells a wallet approved and a reconversion paid (not its other stages), each once, by the administrators' own calls", async () => {
    const admin = await seedMember(t.db, { canValidateAccounts: true, canValidateCredits: true });
    const adminApi = new Api(two.baseUrl, await memberToken(t.db, admin.id));
    const carolMember = await seedMember(t.db, { firstName: "Carol" });
    const pending = await openCustodialWallet(t.db, custodial, carolMember.id, "pending");
    const carol: Person = { ...carolMember, wallet: pending, api: new Api(one.baseUrl, await memberToken(t.db, carolMember.id)) };
    await optIn(carol, { wallet_approved: true });
    expect((await adminApi.call("validateCreation", { body: { walletId: pending } })).status).toBe(200);
    await settled(carol, 1);
    // Named by its currency, as the app names accounts.
    expect(parseMail(mailsTo(carol)[0]!.raw).headers.subject).toMatch(/^Demo Association approved your Currency [\w-]+ account$/);

    const rita = await person("Rita", "Roux", "10.00");
    await optIn(rita, { reconversion_paid: true }, "fr-FR");
    const safe = (await systemWallet(t.db, custodial.id, "safe"))!.id;
    const r = await rita.api.call("transfer", { body: { from: rita.wallet, to: safe, parts: [{ account: "main", amount: "4.00" }], key: newKey() } });
    expect(r.status).toBe(200);
    for (const status of ["received", "invoiced", "paid"] as const)
      expect((await adminApi.call("advanceReconversion", { body: { id: r.json.id, status } })).status).toBe(200);
    await settled(rita, 1);
    expect(mailsTo(rita).map((m) => parseMail(m.raw).headers.subject)).toEqual(["Demo Association a payé votre reconversion de 4,00 DL"]);
  });

  it("sends nothing to a member who did not opt in, nor for a kind they did not choose", async () => {
    const alice = await person("Alice", "Martin", "100.00");
    const carol = await person("Carol", "Petit");
    const dave = await person("Dave", "Roux");
    await optIn(dave, { topup_credited: true });
    expect((await pay(alice, carol, "1.00")).status).toBe(200);
    expect((await pay(alice, dave, "1.00")).status).toBe(200);
    await quiet(carol, dave);
    expect(await deliveries(carol)).toEqual([]);
    expect(await deliveries(dave)).toEqual([]);
    expect([...mailsTo(carol), ...mailsTo(dave)]).toEqual([]);
  });

  it("sends nothing for a payment refused for its balance", async () => {
    const poor = await person("Paul", "Pauvre", "1.00");
    const bob = await person("Bob", "Durand");
    await optIn(bob, { payment_received: true });
    const r = await pay(poor, bob, "5.00");
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    await quiet(bob);
    expect(await deliveries(bob)).toEqual([]);
    expect(mailsTo(bob)).toEqual([]);
  });

  it("the link's page asks (GET changes nothing), its button switches the kind off, and the next payment sends none", async () => {
    const alice = await person("Alice", "Martin", "100.00");
    const bob = await person("Bob", "Durand");
    await optIn(bob, { payment_received: true, topup_credited: true }, "fr-FR");
    await pay(alice, bob, "1.00");
    await settled(bob, 1);
    const link = unsubscribePath(parseMail(mailsTo(bob)[0]!.raw));

    // Mail scanners open links: a GET, even twice, only shows the question.
    for (let i = 0; i < 2; i++) {
      const page = await http(one.baseUrl, "GET", link);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toMatch(/^text\/html/);
      expect(page.text).toContain('<html lang="fr-FR">');
      expect(page.text).toContain("Vous recevez des e-mails sur l&#39;argent reçu.");
      expect(page.text).toContain(`<form method="post" action="${link.replace(/&/g, "&amp;")}">`);
    }
    expect((await bob.api.call("getNotificationSettings")).json.email.payment_received).toBe(true);

    // The button: a form posted to the same link, no session.
    const done = await http(two.baseUrl, "POST", link, form(""));
    expect(done.status).toBe(200);
    expect(done.text).toContain("C&#39;est fait : vous ne recevrez plus d&#39;e-mails sur l&#39;argent reçu.");
    // That kind only.
    expect((await bob.api.call("getNotificationSettings")).json.email).toEqual({ ...NO_MAIL, topup_credited: true });
    // The page opened again says it is off, and has no button.
    const again = await http(one.baseUrl, "GET", link);
    expect(again.text).toContain("Vous ne recevez plus d&#39;e-mails sur l&#39;argent reçu.");
    expect(again.text).not.toContain("<form");

    await pay(alice, bob, "1.00");
    await quiet(bob);
    expect((await deliveries(bob)).length).toBe(1);
    expect(mailsTo(bob)).toHaveLength(1);
  });

  it("a mail client's one-click POST (RFC 8058) switches the kind off", async () => {
    const alice = await person("Alice", "Martin", "100.00");
    const gus = await person("Gus", "Blanc");
    await optIn(gus, { payment_received: true });
    await pay(alice, gus, "1.00");
    await settled(gus, 1);
    const r = await http(one.baseUrl, "POST", unsubscribePath(parseMail(mailsTo(gus)[0]!.raw)), form("List-Unsubscribe=One-Click"));
    expect(r.status).toBe(200);
    expect(r.text).toContain("Done: you will no longer get e-mails about money received.");
    expect((await gus.api.call("getNotificationSettings")).json.email.payment_received).toBe(false);
    await pay(alice, gus, "1.00");
    await quiet(gus);
    expect(mailsTo(gus)).toHaveLength(1);
  });

  it("refuses a tampered or forged token with a 400 page, changing nothing", async () => {
    const alice = await person("Alice", "Martin", "100.00");
    const hal = await person("Hal", "Noir");
    await optIn(hal, { payment_received: true, topup_credited: true }, "fr-FR");
    await pay(alice, hal, "1.00");
    await settled(hal, 1);
    const link = unsubscribePath(parseMail(mailsTo(hal)[0]!.raw));
    const token = new URL(link, PUBLIC_URL).searchParams.get("token")!;
    const [id, kind, sig] = token.split(".") as [string, string, string];
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    const bad = [
      `${id}.topup_credited.${sig}`, // another kind, same signature
      `${BigInt(id) + 1n}.${kind}.${sig}`, // another member
      `${id}.${kind}.${flip(sig, 10)}`, // signature changed
      `${id}.${kind}.${sig.slice(0, -1)}`, // signature cut
      `${id}.nonsense.${sig}`,
      "not-a-token",
    ];
    for (const t of bad) {
      for (const method of ["GET", "POST"]) {
        const r = await http(
          one.baseUrl,
          method,
          `/api/unsubscribe?token=${encodeURIComponent(t)}`,
          method === "POST" ? form("List-Unsubscribe=One-Click") : {},
        );
        expect(r.status, `${method} ${t}`).toBe(400);
        // The token says nothing trustworthy of whose it is: answered in the association's language.
        expect(r.text).toContain("This link is not valid");
      }
    }
    // A signature from another key (another database's) is refused as well.
    await t.db.query("UPDATE server_keys SET key = sha256('another key'::bytea) WHERE name = 'unsubscribe'");
    expect((await http(one.baseUrl, "POST", link, form(""))).status).toBe(400);
    expect((await hal.api.call("getNotificationSettings")).json.email).toMatchObject({ payment_received: true, topup_credited: true });
  });

  it("retries a message the SMTP server refused for now (451), and it arrives exactly once", async () => {
    const alice = await person("Alice", "Martin", "100.00");
    const ida = await person("Ida", "Vert");
    await optIn(ida, { payment_received: true });
    refused = 0;
    refuseNext = 1;
    await pay(alice, ida, "3.00");
    await settled(ida, 1);
    expect(refused).toBe(1);
    expect(mailsTo(ida)).toHaveLength(1);
    expect(await deliveries(ida)).toEqual([{ kind: "payment_received", attempts: 2, sent: true, gave_up: false, last_error: null }]);
  });

  it("a slow mail server holds back no member's live events (the claim is no transaction left open)", async () => {
    const alice = await person("Alice", "Martin", "100.00");
    const bob = await person("Bob", "Durand");
    const carol = await person("Carol", "Petit");
    await optIn(bob, { payment_received: true });
    const carolWasAt = await currentPosition(t.db, carol.id);
    let release = () => {};
    hold = new Promise<void>((r) => (release = r));
    held = 0;
    try {
      await pay(alice, bob, "1.00");
      // Bob's message is in the middle of its SMTP conversation...
      await expect.poll(() => held, { timeout: 5000 }).toBe(1);
      await pay(alice, carol, "1.00");
      // ...and Carol's payment is ready for her open apps all the same: no older transaction holds it
      // back, as a claim kept open as a row lock during the send would (services/notifications/member-events.ts).
      const forCarol = await eventsAfter(t.db, carol.id, carolWasAt, "Demo Association");
      expect(forCarol.events.map((e) => e.kind)).toEqual(["payment_received"]);
      expect(mailsTo(bob)).toEqual([]);
    } finally {
      hold = null;
      release();
    }
    await settled(bob, 1);
    expect(mailsTo(bob)).toHaveLength(1);
  });

  it("a message whose instance died mid-send is sent again once its claim runs out, not before", async () => {
    const alice = await person("Alice", "Martin", "100.00");
    const bob = await person("Bob", "Durand");
    const carol = await person("Carol", "Petit");
    await optIn(bob, { payment_received: true });
    await pay(alice, bob, "1.00");
    await settled(bob, 1);
    // As an instance leaves it when it dies between its claim and "sent": claimed for ten minutes.
    const claimed = async (sql: string) =>
      t.db.query(`UPDATE notification_deliveries d SET sent_at = NULL, ${sql} FROM member_events e WHERE e.id = d.event_id AND e.member_id = $1`, [bob.id]);
    await claimed("next_attempt_at = now() + interval '10 minutes'");
    // Workers woken (by another member's message queued) leave it alone while the claim holds...
    await optIn(carol, { payment_received: true });
    await pay(alice, carol, "1.00");
    await outbox.drained("email");
    // Not claimed again (a claim counts its attempt), and no send of it still on its way.
    expect(await deliveries(bob)).toEqual([{ kind: "payment_received", attempts: 1, sent: false, gave_up: false, last_error: null }]);
    await finished(bob, 1);
    expect(mailsTo(bob)).toHaveLength(1);
    // ...and send it once it has run out: the claim's end made now, the workers woken as their
    // timer wakes them when the next row falls due.
    await claimed("next_attempt_at = now()");
    await t.db.query("SELECT pg_notify($1, '')", [OUTBOX_CHANNEL]);
    await settled(bob, 1);
    expect(mailsTo(bob)).toHaveLength(2);
    expect((await deliveries(bob))[0]).toMatchObject({ attempts: 2, sent: true });
  });

  it("two instances send each of many messages once", async () => {
    const alice = await person("Alice", "Martin", "1000.00");
    const jo = await person("Jo", "Gris");
    await optIn(jo, { payment_received: true });
    const n = 20;
    // Half through each instance, so that both workers are woken while the other sends.
    const paid = await Promise.all(
      Array.from({ length: n }, (_, i) => pay({ ...alice, api: new Api(i % 2 ? two.baseUrl : one.baseUrl, alice.api.token) }, jo, `${i + 1}.00`)),
    );
    expect(paid.map((r) => r.status)).toEqual(Array(n).fill(200));
    await settled(jo, n);
    const subjects = mailsTo(jo).map((m) => parseMail(m.raw).headers.subject);
    expect(subjects).toHaveLength(n);
    expect(new Set(subjects).size).toBe(n);
    expect((await deliveries(jo)).every((d) => d.attempts === 1)).toBe(true);
  });
});

describe("retries", () => {
  it("wait longer after each failure, up to the maximum, and stop after the last attempt allowed", () => {
    const s = { retryBaseSeconds: 30, retryMaxSeconds: 3600, maxAttempts: 8 };
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelaySeconds(n, s))).toEqual([30, 60, 120, 240, 480, 960, 1920, null]);
    expect(retryDelaySeconds(3, { ...s, retryMaxSeconds: 100 })).toBe(100);
  });

  it("come after new mail: a retry that fell due first is claimed after a first attempt", async () => {
    // No server here: the claims are the test's own, one at a time.
    const db = await createTestDatabase();
    try {
      const backend = await createBackend(db.db, { kind: "custodial", symbol: "DL" });
      const m = await seedMember(db.db, { firstName: "Noa" });
      const wallet = await openCustodialWallet(db.db, backend, m.id);
      await db.db.query("INSERT INTO notification_preferences (member_id, channel, kind) VALUES ($1, 'email', 'topup_credited')", [m.id]);
      await topUp(db.db, wallet, "1.00");
      await topUp(db.db, wallet, "2.00");
      const { rows } = await db.db.query<{ id: bigint }>("SELECT id FROM notification_deliveries ORDER BY id");
      const [retry, fresh] = rows.map((r) => r.id) as [bigint, bigint];
      // The first failed once and its backoff ran out a minute ago; the second was queued just now.
      await db.db.query("UPDATE notification_deliveries SET attempts = 1, next_attempt_at = now() - interval '1 minute' WHERE id = $1", [retry]);
      expect(await claimEmail(db.db, 600, 8)).toEqual({ id: fresh, attempts: 1 });
      expect(await claimEmail(db.db, 600, 8)).toEqual({ id: retry, attempts: 2 });
      expect(await claimEmail(db.db, 600, 8)).toBeNull();
    } finally {
      await db.drop();
    }
  });

  it("give a message up after MAIL_MAX_ATTEMPTS refusals, its error kept, nothing sent", async () => {
    const db = await createTestDatabase();
    const watch = watchOutbox(db.db);
    const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
    const server = await startServer(db.db, {
      env: { PUBLIC_URL, MAIL_FROM: FROM, MAIL_RETRY_BASE_SECONDS: "1", MAIL_MAX_ATTEMPTS: "2" },
      mailer: smtpMailer(smtpUrl, FROM),
    });
    try {
      const backend = await createBackend(db.db, { kind: "custodial", symbol: "DL" });
      const m = await seedMember(db.db, { firstName: "Max" });
      const wallet = await openCustodialWallet(db.db, backend, m.id);
      await db.db.query("INSERT INTO notification_preferences (member_id, channel, kind) VALUES ($1, 'email', 'topup_credited')", [m.id]);
      refused = 0;
      refuseNext = 10;
      await topUp(db.db, wallet, "5.00");
      const row = () =>
        db.db
          .query<{ attempts: number; gave_up: boolean; sent: boolean; last_error: string | null }>(
            "SELECT attempts, gave_up_at IS NOT NULL AS gave_up, sent_at IS NOT NULL AS sent, last_error FROM notification_deliveries",
          )
          .then((r) => r.rows[0]);
      await expect.poll(async () => (await row())?.gave_up, { timeout: 15_000, interval: 100 }).toBe(true);
      // The worker looks again and finds nothing to claim: a third attempt would have been claimed, and counted, by then.
      await watch.drained("email");
      expect(await row()).toMatchObject({ attempts: 2, sent: false });
      expect((await row())!.last_error).toMatch(/451/);
      expect(refused).toBe(2);
      expect(inbox.filter((x) => x.to.includes(m.email))).toEqual([]);
    } finally {
      refuseNext = 0;
      await server.close();
      await db.drop();
    }
  });
});

describe("notification settings", () => {
  it("reads and changes only what is named; the language alone too", async () => {
    const kim = await person("Kim", "Rose");
    expect((await kim.api.call("getNotificationSettings")).json).toEqual({
      language: null,
      email: { ...NO_MAIL },
    });
    await optIn(kim, { wallet_approved: true, reconversion_paid: true });
    expect((await kim.api.call("setNotificationSettings", { body: { language: "fr-FR" } })).json).toEqual({
      language: "fr-FR",
      email: { ...NO_MAIL, wallet_approved: true, reconversion_paid: true },
    });
    expect((await kim.api.call("setNotificationSettings", { body: { email: { reconversion_paid: false } } })).json.email.reconversion_paid).toBe(false);
  });

  it("refuses a language or kind the server does not know with 400, changing nothing", async () => {
    const lou = await person("Lou", "Bleu");
    for (const body of [{ language: "de-DE" }, { email: { payment_sent: true } }, { email: { payment_received: "yes" } }]) {
      const r = await lou.api.call("setNotificationSettings", { body: body as never });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.message).toBeTruthy();
    }
    expect((await lou.api.call("getNotificationSettings")).json).toEqual({
      language: null,
      email: { ...NO_MAIL },
    });
  });
});
