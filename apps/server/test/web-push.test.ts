import { execFileSync } from "node:child_process";
import { createECDH, createPublicKey, randomBytes, randomUUID, verify, type ECDH } from "node:crypto";
import fs from "node:fs";
import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import https from "node:https";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import ece from "http_ece";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowedEndpoint } from "../src/services/notifications/push-subscriptions";
import { OUTBOX_CHANNEL, type Mail, type Mailer } from "../src/services/platform/mail";
import { openCustodialWallet, type BackendRow } from "../src/services/wallets/wallets";
import { readSettings } from "../src/settings";
import { Api, createBackend, memberToken, newKey, seedMember, topUp, type SeededMember, type TestServer } from "./helpers";
import { watchOutbox, type OutboxWatch } from "./outbox-watch";
import { setupServerTest } from "./setup";

/**
 * Web Push (docs/architecture.md "Live money") against a real push service: an HTTPS server of the test's own,
 * with a certificate made here. A device subscribes with keys the test makes, as a browser would;
 * the trigger queues a push with the event; the workers of two instances send it once, encrypted
 * for the device (RFC 8291) and signed with the server's VAPID key (RFC 8292); the test decrypts
 * it with the device's private key and auth secret, as the browser would.
 */

const PUBLIC_URL = "https://wallet.example.test";
const FROM = "Mutua Test <no-reply@wallet.example.test>";

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** What the push service answered. */
  status: number;
}

let certDir: string;
let pushService: https.Server;
/** The push service's origin, https://127.0.0.1:<port>: the audience of the VAPID token. */
let origin: string;
/** The servers trust this push service's certificate, and only through the test seam. */
let agent: https.Agent;
const received: Received[] = [];
/** Per endpoint path, the requests that reached the push service, answered or held: each the end of one attempt. */
const reached = new Map<string, number>();
/** Per endpoint path, the statuses the push service answers next (then 201, as a push service accepts). */
const answers = new Map<string, number[]>();
/** Requests to a path under /stall/: read, never answered (a push service gone silent), until the test ends them. */
const stalled: { path: string; at: number; res: ServerResponse }[] = [];
/** How many of them are open at once, at most. */
let stalledOpen = 0;
let stalledMostOpen = 0;
/** The e-mails the instances sent, and when. */
const mails: (Mail & { at: number })[] = [];
const mailer: Mailer = {
  async send(mail) {
    mails.push({ ...mail, at: Date.now() });
  },
};

let one: TestServer;
let two: TestServer;
let custodial: BackendRow;
let outbox: OutboxWatch;

interface Person extends SeededMember {
  wallet: string;
  api: Api;
}

/** A browser's subscription: its endpoint on the push service, its key pair and auth secret. */
interface Device {
  endpoint: string;
  path: string;
  ecdh: ECDH;
  auth: Buffer;
  body: { endpoint: string; keys: { p256dh: string; auth: string } };
}

beforeAll(async () => {
  certDir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-push-cert-"));
  const key = path.join(certDir, "key.pem");
  const cert = path.join(certDir, "cert.pem");
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"].concat([
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      key,
      "-out",
      cert,
    ]),
    { stdio: "ignore" },
  );
  pushService = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      reached.set(req.url!, (reached.get(req.url!) ?? 0) + 1);
      if (req.url!.startsWith("/stall/")) {
        stalled.push({ path: req.url!, at: Date.now(), res });
        stalledMostOpen = Math.max(stalledMostOpen, ++stalledOpen);
        res.on("close", () => stalledOpen--);
        return;
      }
      const status = answers.get(req.url!)?.shift() ?? 201;
      received.push({ path: req.url!, headers: req.headers, body: Buffer.concat(chunks), status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => pushService.listen(0, "127.0.0.1", () => resolve()));
  origin = `https://127.0.0.1:${(pushService.address() as AddressInfo).port}`;
  agent = new https.Agent({ ca: fs.readFileSync(cert) });
});
afterAll(async () => {
  await new Promise<void>((resolve) => (pushService ? pushService.close(() => resolve()) : resolve()));
  if (certDir) fs.rmSync(certDir, { recursive: true, force: true });
});

// Registered after the push service's hooks, so that the instances are closed before it is.
const t = setupServerTest({ server: false });

beforeAll(async () => {
  await t.db.query("UPDATE association SET name = 'Demo Association'");
  const env = {
    PUBLIC_URL,
    MAIL_FROM: FROM,
    MAIL_RETRY_BASE_SECONDS: "1",
    // This push service's port, which an entry must name (443 else); and a real push service's host, for the port rule.
    PUSH_SERVICE_HOSTS: `${new URL(origin).host},fcm.googleapis.com`,
    PUSH_TIMEOUT_SECONDS: "1",
    PUSH_MAX_FAILURES: "3",
  };
  outbox = watchOutbox(t.db);
  // Two instances on one database: their workers share the outbox.
  one = await t.startServer({ env, pushAgent: agent, mailer });
  two = await t.startServer({ env, pushAgent: agent, mailer });
  custodial = await createBackend(t.db, { kind: "custodial", symbol: "DL" });
});

async function person(firstName: string, lastName: string, balance = "0.00"): Promise<Person> {
  const m = await seedMember(t.db, { firstName, lastName });
  const wallet = await openCustodialWallet(t.db, custodial, m.id);
  if (balance !== "0.00") await topUp(t.db, wallet, balance);
  return { ...m, wallet, api: new Api(one.baseUrl, await memberToken(t.db, m.id)) };
}

/** A device; `silent`: on a path where the push service reads the message and never answers. */
function device(silent = false): Device {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const p = `/${silent ? "stall" : "push"}/${randomUUID()}`;
  const endpoint = `${origin}${p}`;
  return { endpoint, path: p, ecdh, auth, body: { endpoint, keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") } } };
}

async function subscribed(p: Person, language?: "fr-FR", silent = false): Promise<Device> {
  const d = device(silent);
  if (language) expect((await p.api.call("setNotificationSettings", { body: { language } })).status).toBe(200);
  const r = await p.api.call("subscribePush", { body: d.body });
  expect(r.status).toBe(200);
  expect(r.json).toEqual({ ok: true });
  return d;
}

const pay = (from: Person, to: Person, amount: string, memo = "") =>
  from.api.call("transfer", {
    body: { from: from.wallet, to: to.wallet, parts: [{ account: "main", amount }], key: newKey(), senderMemo: memo, recipientMemo: memo },
  });

const postsTo = (d: Device) => received.filter((r) => r.path === d.path);

/** The member's queued pushes, as the outbox holds them. */
async function pushes(p: Person) {
  const { rows } = await t.db.query<{ kind: string; attempts: number; sent: boolean; gave_up: boolean }>(
    `SELECT d.kind, d.attempts, d.sent_at IS NOT NULL AS sent, d.gave_up_at IS NOT NULL AS gave_up
       FROM notification_deliveries d JOIN member_events e ON e.id = d.event_id WHERE e.member_id = $1 AND d.channel = 'push' ORDER BY d.id`,
    [p.id],
  );
  return rows;
}

/**
 * Waits until nothing more is on its way to the member's devices: each push queued for them sent or
 * given up, and every attempt their rows count (one per claim, by either instance) arrived at the
 * push service. A second copy, had one been sent, is there by then.
 */
async function finished(p: Person) {
  const state = async () => {
    const { rows } = await t.db.query<{ attempts: number; done: boolean; endpoint: string }>(
      `SELECT d.attempts, d.sent_at IS NOT NULL OR d.gave_up_at IS NOT NULL AS done, s.endpoint
         FROM notification_deliveries d JOIN member_events e ON e.id = d.event_id JOIN push_subscriptions s ON s.id = d.subscription_id
        WHERE e.member_id = $1 AND d.channel = 'push'`,
      [p.id],
    );
    const arrived = [...new Set(rows.map((r) => new URL(r.endpoint).pathname))].reduce((n, path) => n + (reached.get(path) ?? 0), 0);
    return { pending: rows.filter((r) => !r.done).length, unarrived: Math.max(0, rows.reduce((n, r) => n + r.attempts, 0) - arrived) };
  };
  await expect.poll(state, { timeout: 15_000, interval: 50 }).toEqual({ pending: 0, unarrived: 0 });
}

/** Waits until the member's pushes are done with, and checks that `expected` of them were sent. */
async function settled(p: Person, expected: number) {
  await finished(p);
  expect((await pushes(p)).filter((d) => d.sent).length).toBe(expected);
}

/** Before checking that nothing was pushed: the workers have looked since now and found nothing left to claim, and what they claimed has arrived. */
async function quiet(...people: Person[]) {
  await outbox.drained("push");
  for (const p of people) await finished(p);
}

/** The payload as the browser reads it: decrypted with the device's private key and auth secret (RFC 8291). */
function decrypt(d: Device, r: Received): Record<string, string> {
  expect(r.headers["content-encoding"]).toBe("aes128gcm");
  return JSON.parse(ece.decrypt(r.body, { version: "aes128gcm", privateKey: d.ecdh, authSecret: d.auth }).toString("utf8"));
}

/** Checks the request's VAPID authorisation (RFC 8292): a JWT for this push service signed by the key `publicKey`. */
function checkVapid(r: Received, publicKey: string): void {
  const m = /^vapid t=([\w-]+)\.([\w-]+)\.([\w-]+), k=([\w-]+)$/.exec(r.headers.authorization ?? "");
  expect(m, r.headers.authorization).not.toBeNull();
  const [, header, claims, signature, k] = m!;
  expect(k).toBe(publicKey);
  const point = Buffer.from(publicKey, "base64url");
  const key = createPublicKey({
    key: { kty: "EC", crv: "P-256", x: point.subarray(1, 33).toString("base64url"), y: point.subarray(33).toString("base64url") },
    format: "jwk",
  });
  const signed = Buffer.from(`${header}.${claims}`);
  expect(verify("sha256", signed, { key, dsaEncoding: "ieee-p1363" }, Buffer.from(signature!, "base64url"))).toBe(true);
  expect(JSON.parse(Buffer.from(header!, "base64url").toString())).toMatchObject({ alg: "ES256" });
  const c = JSON.parse(Buffer.from(claims!, "base64url").toString()) as { aud: string; exp: number; sub: string };
  expect(c.aud).toBe(origin);
  expect(c.sub).toBe("mailto:no-reply@wallet.example.test");
  expect(c.exp * 1000).toBeGreaterThan(Date.now());
}

describe("Web Push", () => {
  it("Bob's device gets Alice's payment once, encrypted for it, signed with the server's key, naming her and the amount", async () => {
    const alice = await person("Alice", "Martin", "100.00");
    const bob = await person("Bob", "Durand");
    const bobs = await subscribed(bob);
    const alices = await subscribed(alice);
    expect((await pay(alice, bob, "2.50", "Pain")).status).toBe(200);
    await settled(bob, 1);
    expect(postsTo(bobs)).toHaveLength(1);
    const post = postsTo(bobs)[0]!;
    const { publicKey } = (await bob.api.call("getPushKey")).json;
    checkVapid(post, publicKey);
    expect(post.headers.ttl).toBe("86400");
    expect(post.headers.urgency).toBe("high");
    const event = (await t.db.query<{ id: bigint }>("SELECT id FROM member_events WHERE member_id = $1 AND kind = 'payment_received'", [bob.id])).rows[0]!;
    expect(decrypt(bobs, post)).toEqual({ title: "Received 2.50 DL", body: "From Alice Martin\nMemo: Pain", url: "/notifications", tag: String(event.id) });
    // Nothing but the encrypted payload leaves the server: no name, no amount in the clear.
    expect(post.body.toString("latin1")).not.toMatch(/Alice|2\.50/);
    // Alice's own payment is silent: her device gets nothing.
    expect(await pushes(alice)).toEqual([]);
    expect(postsTo(alices)).toEqual([]);
  });

  it("writes in the member's language: French for a French member", async () => {
    const alice = await person("Alice", "Martin", "2000.00");
    const fay = await person("Fay", "Leroy");
    const d = await subscribed(fay, "fr-FR");
    expect((await pay(alice, fay, "1234.50")).status).toBe(200);
    await settled(fay, 1);
    const message = decrypt(d, postsTo(d)[0]!);
    expect(message.title).toMatch(/^Vous avez reçu 1\s234,50 DL$/);
    // The Alice Martin above paid first: this one comes with the day she joined (services/members/name-hints.ts).
    expect(message.body).toMatch(/^De Alice Martin \(membre depuis le \d{1,2} \S+ \d{4}\)$/);
  });

  it("tells a top-up credited on every device of the member, naming the association", async () => {
    const gus = await person("Gus", "Blanc");
    const phone = await subscribed(gus);
    const laptop = await subscribed(gus);
    await topUp(t.db, gus.wallet, "10.00");
    await settled(gus, 2);
    for (const d of [phone, laptop]) {
      expect(postsTo(d)).toHaveLength(1);
      const message = decrypt(d, postsTo(d)[0]!);
      expect(message.title).toBe("Top-up of 10.00 DL credited");
      // Then the order's memo (the test helper's), as the e-mail says it.
      expect(message.body).toMatch(/^By Demo Association(\n|$)/);
    }
  });

  it("a device the push service says is gone (410) is deleted, and nothing is tried again", async () => {
    const alice = await person("Alice", "Martin", "100.00");
    const hal = await person("Hal", "Noir");
    const d = await subscribed(hal);
    answers.set(d.path, [410]);
    expect((await pay(alice, hal, "1.00")).status).toBe(200);
    await expect.poll(async () => (await t.db.query("SELECT 1 FROM push_subscriptions WHERE member_id = $1", [hal.id])).rowCount, { timeout: 15_000 }).toBe(0);
    // Its messages went with it: a retry would be a row still there; the workers find nothing of his to claim.
    await outbox.drained("push");
    expect(postsTo(d).map((r) => r.status)).toEqual([410]);
    expect(await pushes(hal)).toEqual([]);
    // And the next payment pushes nothing either.
    expect((await pay(alice, hal, "1.00")).status).toBe(200);
    await quiet(hal);
    expect(await pushes(hal)).toEqual([]);
    expect(postsTo(d)).toHaveLength(1);
  });

  it("a push service failing (500) gets the message again after the backoff, and it is delivered exactly once", async () => {
    const alice = await person("Alice", "Martin", "100.00");
    const ida = await person("Ida", "Vert");
    const d = await subscribed(ida);
    answers.set(d.path, [500]);
    expect((await pay(alice, ida, "3.00")).status).toBe(200);
    await settled(ida, 1);
    expect(postsTo(d).map((r) => r.status)).toEqual([500, 201]);
    expect(decrypt(d, postsTo(d)[1]!).title).toBe("Received 3.00 DL");
    expect(await pushes(ida)).toEqual([{ kind: "payment_received", attempts: 2, sent: true, gave_up: false }]);
    // The device's failure is over with the success: not paused, nothing counted against it.
    expect((await t.db.query("SELECT failures, paused_until FROM push_subscriptions WHERE member_id = $1", [ida.id])).rows).toEqual([
      { failures: 0, paused_until: null },
    ]);
  });

  it("pushes nothing for a payment refused for its balance", async () => {
    const poor = await person("Paul", "Pauvre", "1.00");
    const bob = await person("Bob", "Durand");
    const d = await subscribed(bob);
    const r = await pay(poor, bob, "5.00");
    expect(r.status).toBe(409);
    await quiet(bob);
    expect(await pushes(bob)).toEqual([]);
    expect(postsTo(d)).toEqual([]);
  });

  it("two instances push each of many payments once", async () => {
    const alice = await person("Alice", "Martin", "1000.00");
    const jo = await person("Jo", "Gris");
    const d = await subscribed(jo);
    const n = 12;
    const paid = await Promise.all(
      Array.from({ length: n }, (_, i) => pay({ ...alice, api: new Api(i % 2 ? two.baseUrl : one.baseUrl, alice.api.token) }, jo, `${i + 1}.00`)),
    );
    expect(paid.map((r) => r.status)).toEqual(Array(n).fill(200));
    await settled(jo, n);
    const titles = postsTo(d).map((r) => decrypt(d, r).title);
    expect(titles).toHaveLength(n);
    expect(new Set(titles).size).toBe(n);
    expect((await pushes(jo)).every((x) => x.attempts === 1)).toBe(true);
  });

  it("a device unsubscribed gets nothing more; another member cannot unsubscribe it", async () => {
    const alice = await person("Alice", "Martin", "100.00");
    const kim = await person("Kim", "Rose");
    const d = await subscribed(kim);
    expect((await alice.api.call("unsubscribePush", { body: { endpoint: d.endpoint } })).status).toBe(200);
    expect((await t.db.query("SELECT 1 FROM push_subscriptions WHERE member_id = $1", [kim.id])).rowCount).toBe(1);
    expect((await kim.api.call("unsubscribePush", { body: { endpoint: d.endpoint } })).json).toEqual({ ok: true });
    expect((await pay(alice, kim, "1.00")).status).toBe(200);
    await quiet(kim);
    expect(await pushes(kim)).toEqual([]);
    expect(postsTo(d)).toEqual([]);
  });

  it("a shared device subscribed by another member is theirs: the previous member's pushes stop going there", async () => {
    const alice = await person("Alice", "Martin", "100.00");
    const lou = await person("Lou", "Bleu");
    const max = await person("Max", "Brun");
    const d = await subscribed(lou);
    const r = await max.api.call("subscribePush", { body: d.body });
    expect(r.status).toBe(200);
    expect((await t.db.query<{ member_id: bigint }>("SELECT member_id FROM push_subscriptions WHERE endpoint = $1", [d.endpoint])).rows).toEqual([
      { member_id: max.id },
    ]);
    expect((await pay(alice, lou, "1.00")).status).toBe(200);
    expect((await pay(alice, max, "2.00")).status).toBe(200);
    await settled(max, 1);
    expect(postsTo(d).map((p) => decrypt(d, p).title)).toEqual(["Received 2.00 DL"]);
    expect(await pushes(lou)).toEqual([]);
  });
});

describe("subscriptions", () => {
  it("refuse an endpoint that is not a configured push service with a 400 naming why, writing nothing", async () => {
    const ned = await person("Ned", "Vert");
    const keys = device().body.keys;
    const port = (pushService.address() as AddressInfo).port;
    for (const endpoint of [
      "https://169.254.169.254/latest/meta-data",
      "https://updates.push.services.mozilla.com/wpush/v2/x", // a real push service, but not this server's configuration
      `http://127.0.0.1:${port}/push/plain-http`,
      `https://user:pw@127.0.0.1:${port}/push/credentials`,
      "https://127.0.0.1.evil.example/push/x",
    ]) {
      const r = await ned.api.call("subscribePush", { body: { endpoint, keys } });
      expect(r.status, endpoint).toBe(400);
      expect(r.json.error.message, endpoint).toBe("This push service is not supported.");
      expect(r.json.error.fields).toEqual({ endpoint: { msgid: "This push service is not supported." } });
    }
    expect((await t.db.query("SELECT 1 FROM push_subscriptions WHERE member_id = $1", [ned.id])).rowCount).toBe(0);
  });

  it("refuse keys that are no P-256 point or no 16-byte secret with a 400, writing nothing", async () => {
    const ned = await person("Ned", "Noir");
    const d = device();
    const notOnCurve = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString("base64url");
    for (const keys of [
      { ...d.body.keys, p256dh: notOnCurve },
      { ...d.body.keys, auth: randomBytes(20).toString("base64url") },
      { ...d.body.keys, p256dh: "x" },
    ]) {
      const r = await ned.api.call("subscribePush", { body: { endpoint: d.endpoint, keys } });
      expect(r.status, JSON.stringify(keys)).toBe(400);
    }
    expect((await t.db.query("SELECT 1 FROM push_subscriptions WHERE member_id = $1", [ned.id])).rowCount).toBe(0);
  });

  it("keep a member's 20 most recently subscribed devices: the oldest gives way, a re-subscribed one stays", async () => {
    const pia = await person("Pia", "Rouge");
    const devices: Device[] = [];
    for (let i = 0; i < 20; i++) devices.push(await subscribed(pia));
    // The first device subscribes again (its browser renewed it): it is now the most recent.
    expect((await pia.api.call("subscribePush", { body: devices[0]!.body })).status).toBe(200);
    const extra = await subscribed(pia);
    const { rows } = await t.db.query<{ endpoint: string }>("SELECT endpoint FROM push_subscriptions WHERE member_id = $1", [pia.id]);
    expect(rows.map((r) => r.endpoint).sort()).toEqual([devices[0]!, ...devices.slice(2), extra].map((d) => d.endpoint).sort());
  });

  it("every instance answers the same VAPID key, kept in the database, made once", async () => {
    const oz = await person("Oz", "Gris");
    const a = (await oz.api.call("getPushKey")).json.publicKey;
    const b = (await new Api(two.baseUrl, oz.api.token).call("getPushKey")).json.publicKey;
    expect(a).toBe(b);
    expect(Buffer.from(a, "base64url")).toHaveLength(65);
    const { rows } = await t.db.query<{ key: Buffer }>("SELECT key FROM server_keys WHERE name = 'vapid'");
    expect(rows).toHaveLength(1);
    const ecdh = createECDH("prime256v1");
    ecdh.setPrivateKey(rows[0]!.key);
    expect(ecdh.getPublicKey().toString("base64url")).toBe(a);
  });
});

describe("a member's silent devices", () => {
  /** Ends the requests the push service held, and forgets the member's devices, so that nothing is sent to them after the test. */
  async function release(p: Person) {
    await t.db.query("DELETE FROM push_subscriptions WHERE member_id = $1", [p.id]);
    for (const s of stalled.splice(0)) s.res.destroy();
  }

  it("twenty devices on a push service that never answers hold back neither another member's e-mail nor their push", async () => {
    const alice = await person("Alice", "Martin", "100.00");
    const xavier = await person("Xavier", "Lent");
    const yves = await person("Yves", "Vif");
    const zoe = await person("Zoe", "Vive");
    for (let i = 0; i < 20; i++) await subscribed(xavier, undefined, true);
    expect((await yves.api.call("setNotificationSettings", { body: { email: { payment_received: true } } })).status).toBe(200);
    const zoes = await subscribed(zoe);
    stalledMostOpen = 0;
    try {
      expect((await pay(alice, xavier, "1.00")).status).toBe(200);
      // Xavier's pushes are on their way, and get no answer...
      await expect.poll(() => stalledOpen, { timeout: 5000, interval: 20 }).toBeGreaterThan(0);
      const paidAt = Date.now();
      expect((await pay(alice, yves, "2.00")).status).toBe(200);
      expect((await pay(alice, zoe, "3.00")).status).toBe(200);
      // ...while Yves's e-mail and Zoe's push leave at once.
      await expect.poll(() => mails.filter((m) => m.to === yves.email).length, { timeout: 2000, interval: 20 }).toBe(1);
      await expect.poll(() => postsTo(zoes).length, { timeout: 2000 - (Date.now() - paidAt), interval: 20 }).toBe(1);
      expect(mails.find((m) => m.to === yves.email)!.at - paidAt).toBeLessThan(2000);
      expect(decrypt(zoes, postsTo(zoes)[0]!).title).toBe("Received 3.00 DL");
      // Two instances with six push senders each: Xavier's devices never had more than two of them,
      // not even once the first two timed out and his turn went on to the next two.
      await expect.poll(() => stalled.length, { timeout: 10_000, interval: 20 }).toBeGreaterThanOrEqual(4);
      expect(stalledMostOpen).toBe(2);
    } finally {
      await release(xavier);
    }
  });

  it("a device whose pushes keep failing is paused, then dropped after PUSH_MAX_FAILURES failures in a row", async () => {
    const alice = await person("Alice", "Martin", "100.00");
    const walt = await person("Walt", "Mou");
    const d = await subscribed(walt, undefined, true);
    const device = async () =>
      (
        await t.db.query<{ failures: number; paused: boolean }>(
          "SELECT failures, paused_until > now() AS paused FROM push_subscriptions WHERE member_id = $1",
          [walt.id],
        )
      ).rows[0];
    const tries = () => stalled.filter((s) => s.path === d.path).length;
    try {
      expect((await pay(alice, walt, "1.00")).status).toBe(200);
      // The push service stays silent past PUSH_TIMEOUT_SECONDS (1 s here): a failure, and the device paused.
      await expect.poll(device, { timeout: 5000, interval: 50 }).toEqual({ failures: 1, paused: true });
      expect(tries()).toBe(1);
      // When that message's retry falls due, its backoff over.
      const retryAt = (
        await t.db.query<{ at: Date }>(
          "SELECT d.next_attempt_at AS at FROM notification_deliveries d JOIN push_subscriptions s ON s.id = d.subscription_id WHERE s.member_id = $1",
          [walt.id],
        )
      ).rows[0]!.at;
      // While it is paused nothing goes there: neither that message's retry nor a new one.
      await t.db.query("UPDATE push_subscriptions SET paused_until = now() + interval '1 hour' WHERE member_id = $1", [walt.id]);
      expect((await pay(alice, walt, "2.00")).status).toBe(200);
      // Once the retry is due too, only the pause holds both back when the workers look.
      const retryDue = async () => (await t.db.query<{ due: boolean }>("SELECT now() >= $1 AS due", [retryAt])).rows[0]!.due;
      await expect.poll(retryDue, { timeout: 5000, interval: 50 }).toBe(true);
      await outbox.drained("push");
      expect(tries()).toBe(1);
      expect((await pushes(walt)).map((p) => p.attempts)).toEqual([1, 0]);
      // Once the pause is over both go, fail, and the third failure in a row drops the device with its messages.
      await t.db.query("UPDATE push_subscriptions SET paused_until = now() WHERE member_id = $1", [walt.id]);
      // The workers woken, as their timer wakes them when the pause ends.
      await t.db.query("SELECT pg_notify($1, '')", [OUTBOX_CHANNEL]);
      await expect.poll(device, { timeout: 10_000, interval: 100 }).toBeUndefined();
      expect(tries()).toBe(3);
      expect(await pushes(walt)).toEqual([]);
    } finally {
      await release(walt);
    }
  });
});

describe("the port rule", () => {
  it("holds for the browsers' push services as configured by default, and a push gets 5 s", () => {
    const { pushServiceHosts, notificationLanes } = readSettings({});
    expect(allowedEndpoint("https://fcm.googleapis.com/fcm/send/x", pushServiceHosts)).toBe("https://fcm.googleapis.com/fcm/send/x");
    expect(allowedEndpoint("https://web.push.apple.com:443/x", pushServiceHosts)).toBe("https://web.push.apple.com/x");
    for (const endpoint of [
      "https://fcm.googleapis.com:81/fcm/send/x",
      "https://updates.push.services.mozilla.com:8443/wpush/v2/x",
      "https://web.push.apple.com:80/x",
    ])
      expect(allowedEndpoint(endpoint, pushServiceHosts), endpoint).toBeNull();
    expect(notificationLanes).toEqual({ emailSenders: 3, pushSenders: 6, pushPerMember: 2, pushTimeoutSeconds: 5, pushMaxFailures: 8 });
  });

  it("refuses an endpoint of an allowed push service on another port than 443, and accepts its port 443", async () => {
    const vic = await person("Vic", "Port");
    const keys = device().body.keys;
    for (const endpoint of ["https://fcm.googleapis.com:81/fcm/send/x", "https://fcm.googleapis.com:8443/fcm/send/x", "https://127.0.0.1:443/push/x"]) {
      const r = await vic.api.call("subscribePush", { body: { endpoint, keys } });
      expect(r.status, endpoint).toBe(400);
      expect(r.json.error.fields).toEqual({ endpoint: { msgid: "This push service is not supported." } });
    }
    expect((await t.db.query("SELECT 1 FROM push_subscriptions WHERE member_id = $1", [vic.id])).rowCount).toBe(0);
    // Port 443 named or not, the same endpoint, stored without it.
    const id = randomUUID();
    expect((await vic.api.call("subscribePush", { body: { endpoint: `https://fcm.googleapis.com:443/fcm/send/${id}`, keys } })).status).toBe(200);
    const stored = await t.db.query<{ endpoint: string }>("SELECT endpoint FROM push_subscriptions WHERE member_id = $1", [vic.id]);
    expect(stored.rows).toEqual([{ endpoint: `https://fcm.googleapis.com/fcm/send/${id}` }]);
    expect((await vic.api.call("unsubscribePush", { body: { endpoint: stored.rows[0]!.endpoint } })).status).toBe(200);
  });

  it("sends nothing to a stored endpoint on another port: the message is given up without a connection", async () => {
    const alice = await person("Alice", "Martin", "100.00");
    const val = await person("Val", "Port");
    let connections = 0;
    const other = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", () => resolve()));
    try {
      // As a row written before the rule (or by hand): the push service's host, another port.
      const keys = device().body.keys;
      await t.db.query("INSERT INTO push_subscriptions (member_id, endpoint, p256dh, auth) VALUES ($1, $2, $3, $4)", [
        val.id,
        `https://127.0.0.1:${(other.address() as AddressInfo).port}/push/${randomUUID()}`,
        keys.p256dh,
        keys.auth,
      ]);
      expect((await pay(alice, val, "1.00")).status).toBe(200);
      await expect.poll(async () => (await pushes(val))[0]?.gave_up, { timeout: 5000, interval: 50 }).toBe(true);
      expect(await pushes(val)).toEqual([{ kind: "payment_received", attempts: 1, sent: false, gave_up: true }]);
      expect(connections).toBe(0);
    } finally {
      await new Promise((r) => other.close(r));
    }
  });
});
