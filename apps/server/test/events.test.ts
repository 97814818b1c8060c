import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { EventSource } from "eventsource";
import { MutuaClient, subscribe } from "@mutua/client";
import type { MemberEvent } from "@mutua/domain";
import { inTransaction } from "../src/db/pool";
import { SUPERSEDED_RETRY_MS } from "../src/http/event-feeds";
import { STREAM_CAPS } from "../src/services/notifications/event-streams";
import { createSession, newToken } from "../src/services/members/sessions";
import { postMovementTx } from "../src/services/ledger/ledger";
import { openCustodialWallet, systemWallet, type BackendRow } from "../src/services/wallets/wallets";
import { Api, createBackend, memberToken, newKey, seedMember, topUp, type SeededMember, type TestServer } from "./helpers";
import { setupServerTest } from "./setup";

/**
 * Live money (docs/architecture.md "Live money"): the database writes a member's events in their cause's
 * transaction, and every instance's event stream hands them to the member's open apps, in the order
 * they committed, resuming after the last one a reconnecting app saw.
 */

const t = setupServerTest();
let one: TestServer;
let two: TestServer;
let custodial: BackendRow;
let admin: Api;

interface Person extends SeededMember {
  wallet: string;
  api: Api;
  token: string;
}

async function person(firstName: string, lastName: string, balance = "0.00"): Promise<Person> {
  const m = await seedMember(t.db, { firstName, lastName });
  const wallet = await openCustodialWallet(t.db, custodial, m.id);
  if (balance !== "0.00") await topUp(t.db, wallet, balance);
  const token = await memberToken(t.db, m.id);
  return { ...m, wallet, token, api: new Api(one.baseUrl, token) };
}

/** An open app's stream: the events it received, and whether it is up. */
function follow(server: TestServer, who: Person) {
  const events: MemberEvent[] = [];
  let opened = 0;
  const client = new MutuaClient({ baseUrl: server.baseUrl, getToken: () => who.token, EventSource });
  const stop = subscribe(client, { onEvent: (e) => events.push(e), onOpen: () => opened++ });
  streams.push(stop);
  return {
    events,
    stop,
    opened: () => opened,
    /** Waits until the stream said it is up (its `ready` event). */
    ready: () => expect.poll(() => opened, { timeout: 5000 }).toBeGreaterThan(0),
  };
}
const streams: (() => void)[] = [];

const pay = (from: Person, to: Person, amount: string, memo = "") =>
  from.api.call("transfer", {
    body: { from: from.wallet, to: to.wallet, parts: [{ account: "main", amount }], key: newKey(), senderMemo: memo, recipientMemo: memo },
  });

beforeAll(async () => {
  one = t.server;
  two = await t.startServer();
  custodial = await createBackend(t.db, { kind: "custodial", symbol: "DL" });
  const a = await seedMember(t.db, { canValidateAccounts: true, canValidateCredits: true });
  admin = new Api(one.baseUrl, await memberToken(t.db, a.id));
});

afterEach(async () => {
  for (const stop of streams.splice(0)) stop();
});

afterAll(async () => {
  // A fetch whose event stream was aborted leaves behind a connection that never sends a request,
  // which a closing server would otherwise wait out (its 72 s keep-alive); every stream is over.
  // (Vitest runs after-hooks in reverse: this one before the setup closes the servers.)
  for (const s of [one, two]) s?.app.server.closeAllConnections();
});

const eventsOf = async (m: Person) =>
  (await t.db.query<{ kind: string; read: boolean }>("SELECT kind, read_at IS NOT NULL AS read FROM member_events WHERE member_id = $1 ORDER BY id", [m.id]))
    .rows;

describe("events", () => {
  it("are written with their cause: a payment tells its payee (unread) and its payer (read); a refused one tells nobody", async () => {
    const alice = await person("Alice", "Martin", "10.00");
    const bob = await person("Bob", "Durand");
    expect(await eventsOf(alice)).toEqual([{ kind: "topup_credited", read: false }]);
    expect((await pay(alice, bob, "2.50")).status).toBe(200);
    expect((await pay(alice, bob, "50.00")).status).toBe(409);
    expect(await eventsOf(bob)).toEqual([{ kind: "payment_received", read: false }]);
    expect(await eventsOf(alice)).toEqual([
      { kind: "topup_credited", read: false },
      { kind: "payment_sent", read: true },
    ]);
  });

  it("tell a member of their wallet approved or discarded, and of each stage of their reconversion", async () => {
    const carol = await seedMember(t.db, { firstName: "Carol" });
    const approved = await openCustodialWallet(t.db, custodial, carol.id, "pending");
    expect((await admin.call("validateCreation", { body: { walletId: approved } })).status).toBe(200);
    const rita = await person("Rita", "Roux", "10.00");
    const safe = (await systemWallet(t.db, custodial.id, "safe"))!.id;
    const r = await rita.api.call("transfer", { body: { from: rita.wallet, to: safe, parts: [{ account: "main", amount: "4.00" }], key: newKey() } });
    expect(r.status).toBe(200);
    expect((await admin.call("advanceReconversion", { body: { id: r.json.id, status: "received" } })).status).toBe(200);
    const { rows } = await t.db.query("SELECT kind, stage, wallet_id FROM member_events WHERE member_id = ANY($1) ORDER BY id", [[carol.id, rita.id]]);
    expect(rows).toEqual([
      { kind: "wallet_approved", stage: null, wallet_id: approved },
      { kind: "topup_credited", stage: null, wallet_id: rita.wallet },
      { kind: "reconversion_sent", stage: null, wallet_id: rita.wallet },
      { kind: "reconversion_stage", stage: "received", wallet_id: rita.wallet },
    ]);
  });
});

describe("the event stream", () => {
  it("hands a payment posted through one instance to the payee's apps open on another, naming the payer and the amount", async () => {
    const alice = await person("Alice", "Martin", "10.00");
    const bob = await person("Bob", "Durand");
    const carol = await person("Carol", "Petit");
    const bobOnTwo = follow(two, bob);
    const bobSecondTab = follow(one, bob);
    const carolOnTwo = follow(two, carol);
    await Promise.all([bobOnTwo.ready(), bobSecondTab.ready(), carolOnTwo.ready()]);
    const paid = await pay(alice, bob, "2.50", "Bread");
    expect(paid.status).toBe(200);
    for (const tab of [bobOnTwo, bobSecondTab]) {
      await expect.poll(() => tab.events.length, { timeout: 2000 }).toBe(1);
      expect(tab.events[0]).toMatchObject({
        kind: "payment_received",
        amount: "2.50",
        currency: "DL",
        counterparty: "Alice Martin",
        walletId: bob.wallet,
        transactionId: paid.json.id,
        read: false,
      });
    }
    // Nobody else hears of it.
    await pay(alice, carol, "1.00");
    await expect.poll(() => carolOnTwo.events.length, { timeout: 5000 }).toBe(1);
    expect(carolOnTwo.events[0]).toMatchObject({ counterparty: "Alice Martin", amount: "1.00" });
    expect(bobOnTwo.events).toHaveLength(1);
  });

  it("resumes after the last event an app saw: a payment made while it was cut off arrives once", async () => {
    const alice = await person("Alice", "Martin", "10.00");
    const bob = await person("Bob", "Durand");
    const first = follow(two, bob);
    await first.ready();
    await pay(alice, bob, "1.00");
    await expect.poll(() => first.events.length, { timeout: 5000 }).toBe(1);
    const lastSeen = first.events[0]!.id;
    first.stop();

    await pay(alice, bob, "2.00");
    await pay(alice, bob, "3.00");
    // An app coming back says where it stopped (an EventSource sends Last-Event-ID; a new one, ?after=).
    const text = await streamText(two, bob, { "Last-Event-ID": lastSeen });
    expect(amountsIn(text)).toEqual(["2.00", "3.00"]);
    expect(amountsIn(await streamText(one, bob, {}, `?after=${lastSeen}`))).toEqual(["2.00", "3.00"]);
    // A stream opened with no position starts now: what is past is in the notification centre.
    expect(amountsIn(await streamText(one, bob, {}))).toEqual([]);
  });

  it("keeps to the order a member's events commit, and waits for no one else's transaction", async () => {
    const alice = await person("Alice", "Martin", "10.00");
    const bob = await person("Bob", "Durand");
    const carol = await person("Carol", "Petit");
    const dan = await person("Dan", "Roux", "10.00");
    const other = await createBackend(t.db, { kind: "custodial", symbol: "EU" });
    const bobEuro = await openCustodialWallet(t.db, other, bob.id);
    const forBob = follow(two, bob);
    const forCarol = follow(one, carol);
    await forBob.ready();
    await forCarol.ready();
    // A payment to Bob whose transaction stays open has drawn his next number...
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let drawn!: () => void;
    const eventDrawn = new Promise<void>((r) => (drawn = r));
    const slow = inTransaction(t.db, async (tx) => {
      await postMovementTx(tx, {
        kind: "payment",
        payerWalletId: alice.wallet,
        payeeWalletId: bob.wallet,
        parts: [{ account: "main", amount: 100n }],
        senderMemo: "",
        recipientMemo: "",
        idempotencyKey: newKey(),
        initiatedBy: alice.id,
      });
      drawn();
      await held;
    });
    await eventDrawn;
    let later: Promise<unknown> = Promise.resolve();
    try {
      // ...a top-up of another of Bob's wallets, on other accounts, waits to draw the one after...
      later = topUp(t.db, bobEuro, "5.00");
      // ...while Dan's payment to Carol, which has nothing of Bob's, reaches her at once, however old
      // the transaction left open (every stream once waited for the oldest transaction of the database).
      await pay(dan, carol, "2.00");
      await expect.poll(() => forCarol.events.map((e) => e.amount), { timeout: 2000 }).toEqual(["2.00"]);
      expect(forBob.events).toEqual([]);
    } finally {
      release();
    }
    await slow;
    await later;
    // Bob's come once each, in the order they committed.
    await expect.poll(() => forBob.events.map((e) => `${e.kind} ${e.amount} ${e.currency}`)).toEqual(["payment_received 1.00 DL", "topup_credited 5.00 EU"]);
  });

  it("a stream opened after many events starts past all of them, and one resumed before them gets each once, in order", async () => {
    const alice = await person("Alice", "Martin", "200.00");
    const bob = await person("Bob", "Durand");
    // Past 9, 99 and 100: positions compared as text or as a page of 100 would go wrong here.
    for (let i = 1; i <= 101; i++) await topUp(t.db, bob.wallet, `${i}.00`);
    const seqs = await t.db.query<{ seq: string }>("SELECT seq::text FROM member_events WHERE member_id = $1 ORDER BY id", [bob.id]);
    expect(seqs.rows.map((r) => r.seq)).toEqual(Array.from({ length: 101 }, (_, i) => String(i + 1)));
    const { rows } = await t.db.query<{ id: string }>("SELECT id::text FROM member_events WHERE member_id = $1 ORDER BY seq LIMIT 1", [bob.id]);
    const fresh = follow(one, bob);
    await fresh.ready();
    await pay(alice, bob, "0.25");
    await expect.poll(() => fresh.events.map((e) => e.amount), { timeout: 5000 }).toEqual(["0.25"]);
    const resumed = amountsIn(await streamText(two, bob, { "Last-Event-ID": rows[0]!.id }));
    expect(resumed).toEqual([...Array.from({ length: 100 }, (_, i) => `${i + 2}.00`), "0.25"]);
  });
});

describe("a stream ends with its session", () => {
  it("at a logout: the payment after it reaches the member's other session, not the stream", async () => {
    const alice = await person("Alice", "Martin", "10.00");
    const bob = await person("Bob", "Durand");
    const stolen = await openStream(one, bob.token);
    const other = await openStream(one, await memberToken(t.db, bob.id));
    await pay(alice, bob, "1.00");
    await expect.poll(() => stolen.amounts(), { timeout: 5000 }).toEqual(["1.00"]);
    expect((await bob.api.call("logout")).status).toBe(200);
    await expect.poll(() => stolen.ended(), { timeout: 2000 }).toBe(true);
    await pay(alice, bob, "2.00");
    await expect.poll(() => other.amounts(), { timeout: 5000 }).toEqual(["1.00", "2.00"]);
    expect(stolen.amounts()).toEqual(["1.00"]);
    // Nor can it be reopened.
    const again = await fetch(`${one.baseUrl}/api/events`, { headers: { Authorization: `Bearer ${bob.token}` } });
    expect([again.status, (await again.json()).error.code]).toEqual([401, "login_required"]);
  });

  it("at a logout through another instance", async () => {
    const bob = await person("Bob", "Durand");
    const stream = await openStream(one, bob.token);
    expect((await new Api(two.baseUrl, bob.token).call("logout")).status).toBe(200);
    await expect.poll(() => stream.ended(), { timeout: 2000 }).toBe(true);
  });

  it("at an administrator's sign-out-everywhere, on every instance", async () => {
    const bob = await person("Bob", "Durand");
    const onOne = await openStream(one, bob.token);
    const onTwo = await openStream(two, await memberToken(t.db, bob.id));
    expect((await admin.call("signOutMember", { params: { memberId: Number(bob.id) } })).status).toBe(200);
    await expect.poll(() => [onOne.ended(), onTwo.ended()], { timeout: 2000 }).toEqual([true, true]);
  });

  it("at a password reset", async () => {
    const bob = await person("Bob", "Durand");
    const stream = await openStream(one, bob.token);
    const { token, hash } = newToken();
    await t.db.query("INSERT INTO password_resets (token_hash, member_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')", [hash, bob.id]);
    expect((await new Api(two.baseUrl).call("setNewPassword", { body: { token, password: "Another-Passw0rd!" } })).status).toBe(200);
    await expect.poll(() => stream.ended(), { timeout: 2000 }).toBe(true);
  });

  it("at its expiry, with nothing else happening", async () => {
    const bob = await person("Bob", "Durand");
    const stream = await openStream(two, (await createSession(t.db, bob.id, 1.5)).token);
    await expect.poll(() => stream.ended(), { timeout: 3000 }).toBe(true);
  });
});

describe("event streams", () => {
  const openRows = async (m: Person) =>
    (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM event_streams WHERE member_id = $1", [m.id])).rows[0]!.n;

  it(`are ${STREAM_CAPS.perSession} at most per session: one more closes the oldest, wherever it is, and the newest works`, async () => {
    const alice = await person("Alice", "Martin", "10.00");
    const bob = await person("Bob", "Durand");
    const tabs: OpenedStream[] = [];
    for (let i = 0; i <= STREAM_CAPS.perSession; i++) tabs.push(await openStream(i % 2 ? two : one, bob.token));
    const closed = [true, ...tabs.slice(1).map(() => false)];
    await expect.poll(() => tabs.map((t) => t.ended()), { timeout: 2000 }).toEqual(closed);
    // Its EventSource waits before reconnecting, rather than close the next oldest in turn.
    expect(tabs[0]!.text()).toContain(`retry: ${SUPERSEDED_RETRY_MS}\n`);
    await pay(alice, bob, "1.00");
    for (const t of tabs.slice(1)) await expect.poll(() => t.amounts(), { timeout: 5000 }).toEqual(["1.00"]);
    expect(await openRows(bob)).toBe(STREAM_CAPS.perSession);
  });

  it(`are ${STREAM_CAPS.perMember} at most per member, across sessions`, async () => {
    const bob = await person("Bob", "Durand");
    const tabs: OpenedStream[] = [];
    for (let i = 0; i <= STREAM_CAPS.perMember; i++) {
      if (i % STREAM_CAPS.perSession === 0) bob.token = await memberToken(t.db, bob.id);
      tabs.push(await openStream(i % 2 ? two : one, bob.token));
    }
    const closed = [true, ...tabs.slice(1).map(() => false)];
    await expect.poll(() => tabs.map((t) => t.ended()), { timeout: 2000 }).toEqual(closed);
    expect(await openRows(bob)).toBe(STREAM_CAPS.perMember);
  });

  it("of one member on one instance share one read of their new events", async () => {
    const alice = await person("Alice", "Martin", "10.00");
    const bob = await person("Bob", "Durand");
    const tabs: OpenedStream[] = [];
    for (let i = 0; i < 4; i++) tabs.push(await openStream(one, bob.token));
    // A first payment brings every stream to the same position (a stream opened while another
    // was reading may start apart, and catches up), so the count below sees only shared reads.
    await pay(alice, bob, "0.50");
    for (const tab of tabs) await expect.poll(() => tab.amounts(), { timeout: 5000 }).toEqual(["0.50"]);
    const query = t.db.query.bind(t.db);
    let reads = 0;
    t.db.query = ((text: unknown, values?: unknown[]) => {
      if (typeof text === "string" && text.includes("e.seq > $2") && values?.[0] === bob.id) reads++;
      return query(text as string, values);
    }) as typeof t.db.query;
    try {
      await pay(alice, bob, "1.00");
      for (const tab of tabs) await expect.poll(() => tab.amounts(), { timeout: 5000 }).toEqual(["0.50", "1.00"]);
    } finally {
      delete (t.db as { query?: unknown }).query;
    }
    // One read, not one per stream.
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThan(tabs.length);
  });
});

describe("the notification centre", () => {
  it("lists a member's notifications newest first, a page at a time, counts the unread, and marks them read", async () => {
    const alice = await person("Alice", "Martin", "10.00");
    const bob = await person("Bob", "Durand");
    for (const amount of ["1.00", "2.00", "3.00"]) expect((await pay(alice, bob, amount)).status).toBe(200);
    const bobApi = new Api(two.baseUrl, bob.token);
    const first = await bobApi.call("listNotifications", { query: { limit: 2 } });
    expect(first.json.items.map((e) => e.amount)).toEqual(["3.00", "2.00"]);
    expect(first.json.unread).toBe(3);
    const second = await bobApi.call("listNotifications", { query: { limit: 2, before: first.json.next! } });
    expect(second.json.items.map((e) => e.amount)).toEqual(["1.00"]);
    expect(second.json.next).toBeNull();
    expect((await bobApi.call("markNotificationsRead", { body: { ids: [first.json.items[0]!.id] } })).json).toEqual({ unread: 2 });
    // Alice's own payments are not notifications of hers; her top-up is.
    const aliceList = await alice.api.call("listNotifications");
    expect(aliceList.json.items.map((e) => e.kind)).toEqual(["topup_credited"]);
    // Another member's ids mark nothing of Bob's.
    expect((await alice.api.call("markNotificationsRead", { body: { ids: [first.json.items[1]!.id] } })).json).toEqual({ unread: 1 });
    expect((await bobApi.call("listNotifications")).json.unread).toBe(2);
    expect((await bobApi.call("markAllNotificationsRead")).json).toEqual({ unread: 0 });
    expect((await bobApi.call("listNotifications")).json.items.every((e) => e.read)).toBe(true);
  });

  it("refuses ids that are not event ids", async () => {
    const bob = await person("Bob", "Durand");
    const r = await bob.api.call("markNotificationsRead", { body: { ids: ["1; DROP TABLE members"] } });
    expect(r.status).toBe(400);
  });
});

type OpenedStream = Awaited<ReturnType<typeof openStream>>;

/** A stream opened by hand, up (its `ready` came): what it said, and whether the server ended it. */
async function openStream(server: TestServer, token: string) {
  const controller = new AbortController();
  const res = await fetch(`${server.baseUrl}/api/events`, { headers: { Authorization: `Bearer ${token}` }, signal: controller.signal });
  expect(res.status).toBe(200);
  streams.push(() => controller.abort());
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let ended = false;
  void (async () => {
    try {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value, { stream: true });
    } catch {
      // Aborted once the test is over.
    }
    ended = true;
  })();
  await expect.poll(() => text).toContain("event: ready");
  return { text: () => text, ended: () => ended, amounts: () => amountsIn(text) };
}

/** What a stream says in its first half second (the tests above read whole events only). */
async function streamText(server: TestServer, who: Person, headers: Record<string, string>, query = ""): Promise<string> {
  const controller = new AbortController();
  const res = await fetch(`${server.baseUrl}/api/events${query}`, { headers: { Authorization: `Bearer ${who.token}`, ...headers }, signal: controller.signal });
  expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const until = Date.now() + 500;
  while (Date.now() < until) {
    const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), until - Date.now()))]);
    if (!chunk || chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  controller.abort();
  return text;
}

const amountsIn = (text: string) =>
  text
    .split("\n")
    .filter((l) => l.startsWith("data: {") && l.includes('"kind"'))
    .map((l) => (JSON.parse(l.slice(6)) as MemberEvent).amount);
