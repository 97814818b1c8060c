import fs from "node:fs";
import net from "node:net";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SM, buildPath } from "@mutua/domain";
import { createPool, inTransaction, isDatabaseUnavailable, stopWaitingForDatabase, type Db } from "../src/db/pool";
import { postMovement, postMovementTx, type MovementRequest } from "../src/services/ledger/ledger";
import { openCustodialWallet } from "../src/services/wallets/wallets";
import { DbProxy } from "./db-proxy";
import { Api, createBackend, freePort, memberToken, newKey, seedMember, startServer, topUp, type TestServer } from "./helpers";
import { ServerProcess, waitFor } from "./reliability/processes";
import { setupServerTest } from "./setup";

/**
 * What the server does when its database fails over (docs/operations.md "High availability"), on
 * the suite's own PostgreSQL: its connections are lost through a proxy (db-proxy.ts) the ways a
 * failover loses them. The failover itself, under Patroni, is `npm run test:ha`'s.
 */
const t = setupServerTest({ server: false });
let proxy: DbProxy;
const pools: Db[] = [];
const servers: TestServer[] = [];
beforeAll(async () => {
  proxy = await DbProxy.start(t.tdb.url);
});
afterAll(async () => {
  for (const s of servers) await s.close();
  for (const p of pools) await p.end();
  await proxy.close();
});

/** A pool through the proxy (waiting `waitForPrimaryMs` for the database, as the server's does). */
function proxiedPool(max: number, waitForPrimaryMs = 0): Db {
  const db = createPool(proxy.url, max, { waitForPrimaryMs });
  pools.push(db);
  return db;
}

/** Alice, with 10.00 on her custodial wallet, and Bob. */
async function twoMembers() {
  const backend = await createBackend(t.db, { kind: "custodial" });
  const alice = await seedMember(t.db, { firstName: "Alice" });
  const bob = await seedMember(t.db, { firstName: "Bob" });
  const aliceWallet = await openCustodialWallet(t.db, backend, alice.id, "active");
  const bobWallet = await openCustodialWallet(t.db, backend, bob.id, "active");
  await topUp(t.db, aliceWallet, "10.00");
  return { alice, aliceWallet, bobWallet };
}

const payment = (from: string, to: string, key = newKey()): MovementRequest => ({
  kind: "payment",
  payerWalletId: from,
  payeeWalletId: to,
  parts: [{ account: "main", amount: 100n }],
  senderMemo: "",
  recipientMemo: "",
  idempotencyKey: key,
  initiatedBy: null,
});

/** The movements under these keys, with their public ids. */
async function movements(keys: string[]): Promise<{ key: string; id: string }[]> {
  const { rows } = await t.db.query<{ key: string; id: string }>(
    "SELECT idempotency_key AS key, public_id AS id FROM movements WHERE idempotency_key = ANY($1::text[])",
    [keys],
  );
  return rows;
}

interface Family {
  name: string;
  metrics: { labels?: Record<string, string>; value?: string }[];
}
const parsePrometheus = createRequire(import.meta.url)("parse-prometheus-text-format") as (text: string) => Family[];
/** A metric's value in a scrape of `server` (undefined: left out). */
async function metric(server: TestServer, name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const f = parsePrometheus(await server.app.metrics.scrape()).find((x) => x.name === name);
  const sample = f?.metrics.find((m) => JSON.stringify(m.labels ?? {}) === JSON.stringify(labels));
  return sample?.value === undefined ? undefined : Number(sample.value);
}

describe("a connection lost before anything was done", () => {
  it("is found dead at BEGIN and swapped: the payment is made, once", async () => {
    const { aliceWallet, bobWallet } = await twoMembers();
    const db = proxiedPool(1);
    await db.query("SELECT 1"); // the pool's one connection, now idle
    proxy.cutSilently();
    const resets = proxy.resets;
    const req = payment(aliceWallet, bobWallet);
    const { movement, replayed } = await inTransaction(db, (tx) => postMovementTx(tx, req));
    expect(proxy.resets).toBe(resets + 1); // the dead connection was the one tried first
    expect(replayed).toBe(false);
    expect(await movements([req.idempotencyKey])).toEqual([{ key: req.idempotencyKey, id: movement.public_id }]);
  });

  it("is found dead by a payment's statement and the payment posted on another, once", async () => {
    const { aliceWallet, bobWallet } = await twoMembers();
    const db = proxiedPool(1);
    await db.query("SELECT 1");
    proxy.cutSilently();
    const resets = proxy.resets;
    const req = payment(aliceWallet, bobWallet);
    const { movement, replayed } = await postMovement(db, req);
    expect(proxy.resets).toBe(resets + 1);
    expect(replayed).toBe(false);
    expect(await movements([req.idempotencyKey])).toEqual([{ key: req.idempotencyKey, id: movement.public_id }]);
  });
});

describe("a connection lost as the movement committed", () => {
  it("is resolved by the payment's key: answered as paid, with its id, posted and counted once", async () => {
    const { alice, aliceWallet, bobWallet } = await twoMembers();
    const server = await startServer(proxiedPool(4));
    servers.push(server);
    const api = new Api(server.baseUrl, await memberToken(t.db, alice.id));
    const key = newKey();
    const lost = proxy.loseAnswerTo("ledger-post");
    const r = await api.call("transfer", { body: { from: aliceWallet, to: bobWallet, parts: [{ account: "main", amount: "1.00" }], key } });
    await lost; // PostgreSQL committed it and the server never heard back
    expect(r.status).toBe(200);
    expect(await movements([key])).toEqual([{ key, id: r.json.id }]);
    // Posted, not a replay of someone else's: counted as a payment made.
    expect(await metric(server, "mutua_movements_posted_total", { kind: "payment" })).toBe(1);
  });

  it("is resolved by each movement's key when a group-commit batch was in doubt", async () => {
    const { aliceWallet, bobWallet } = await twoMembers();
    const db = proxiedPool(4);
    const reqs = Array.from({ length: 6 }, () => payment(aliceWallet, bobWallet));
    const lost = proxy.loseAnswerTo("ledger-post-batch");
    // Submitted at once: the first two go alone (two batches in flight at most), the other four together.
    const outs = await Promise.all(reqs.map((r) => postMovement(db, r)));
    await lost;
    expect(outs.map((o) => o.replayed)).toEqual(reqs.map(() => false));
    const keys = reqs.map((r) => r.idempotencyKey);
    expect((await movements(keys)).sort((a, b) => keys.indexOf(a.key) - keys.indexOf(b.key))).toEqual(
      outs.map((o, i) => ({ key: keys[i], id: o.movement.public_id })),
    );
  });
});

describe("no database at all", () => {
  it("answers 503 'Try again in a moment', never 500; not ready; the metrics say no primary", async () => {
    const { alice } = await twoMembers();
    const server = await startServer(proxiedPool(2));
    servers.push(server);
    const api = new Api(server.baseUrl, await memberToken(t.db, alice.id));
    expect((await api.call("listTills")).status).toBe(200);
    expect(await metric(server, "mutua_database_primary")).toBe(1);
    proxy.stop();
    try {
      const r = await api.call("listTills");
      expect(r.status).toBe(503);
      expect(r.headers.get("retry-after")).toBe("2");
      expect(r.json.error).toMatchObject({ code: "service_unavailable", message: SM.databaseUnavailable });
      expect(r.json.error.message).toContain("Try again in a moment");
      expect((await api.call("ready")).status).toBe(503);
      expect(await metric(server, "mutua_database_primary")).toBe(0);
    } finally {
      proxy.restart();
    }
    expect((await api.call("listTills")).status).toBe(200);
    expect((await api.call("ready")).status).toBe(200);
  });

  it("for a moment: a request waits for the database and is served when it is back; readiness does not wait", async () => {
    const { alice } = await twoMembers();
    // Waits far longer than the test may take: a readiness probe that waited would fail the test.
    const server = await startServer(proxiedPool(2, 600_000));
    servers.push(server);
    const api = new Api(server.baseUrl, await memberToken(t.db, alice.id));
    proxy.stop();
    let served: Promise<{ status: number }> | undefined;
    try {
      expect((await api.call("ready")).status).toBe(503);
      const refused = proxy.refused;
      served = api.call("listTills");
      // The request has tried, and is trying again: the database comes back.
      expect(await waitFor(() => proxy.refused > refused, 20_000, 20)).toBe(true);
    } finally {
      proxy.restart();
    }
    expect((await served!).status).toBe(200);
  });
});

describe("the metrics of high availability", () => {
  it("say the database is a primary with no synchronous standby, and leave out a lag there is none of", async () => {
    const server = await startServer(t.db);
    servers.push(server);
    expect(await metric(server, "mutua_database_primary")).toBe(1);
    expect(await metric(server, "mutua_database_sync_standbys")).toBe(0);
    const f = parsePrometheus(await server.app.metrics.scrape()).find((x) => x.name === "mutua_database_replication_lag_bytes");
    expect(f?.metrics ?? []).toEqual([]);
  });
});

describe("a top-up order while a payment of the same member commits", () => {
  // Seen under test:ha's load: the payment holds its rows referring to the member's wallet and to
  // the member (a movement, member events: key-share locks) while the order wants both.
  it("does not deadlock with it: the order is made, never a 500", async () => {
    const { alice, aliceWallet } = await twoMembers();
    const server = await startServer(t.db);
    servers.push(server);
    const api = new Api(server.baseUrl, await memberToken(t.db, alice.id));
    const payment = await t.db.connect();
    try {
      await payment.query("BEGIN");
      // What the payment's INSERT of its movement takes on the wallet it refers to.
      await payment.query("SELECT 1 FROM wallets WHERE id = $1 FOR KEY SHARE", [aliceWallet]);
      let settled = false;
      const order = api.call("createTopUp", { body: { walletId: aliceWallet, amount: "5.00" } }).finally(() => (settled = true));
      // The order is answered, or waits on the wallet the payment holds.
      const waitingOnLock = async () =>
        (
          await t.db.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%FROM wallets w JOIN backends%'",
          )
        ).rows[0]!.n > 0;
      expect(await waitFor(async () => settled || (await waitingOnLock()), 10_000, 20)).toBe(true);
      // Then the payment's member event takes its key-share lock on the member.
      const memberLocked = payment.query("SELECT 1 FROM members WHERE id = $1 FOR KEY SHARE", [alice.id]).then(
        () => true,
        () => false,
      );
      const r = await order;
      expect(r.status).toBe(200);
      expect(await memberLocked).toBe(true);
      await payment.query("COMMIT");
    } finally {
      await payment.query("ROLLBACK").catch(() => undefined);
      payment.release();
    }
  });
});

describe("a server asked to stop while its database is gone", () => {
  it("is not held by a connection to a host that never answers: the request waiting for it is refused as unavailable", async () => {
    // No connection made yet: the request's is the first, to a host gone silent.
    const db = proxiedPool(2, 60_000);
    proxy.goSilent();
    try {
      const waiting = db.query("SELECT 1").then(
        () => "answered",
        (e: Error) => (isDatabaseUnavailable(e) ? "unavailable" : e.message),
      );
      // Its connection is on its way, to a host that will never answer it.
      expect(await waitFor(() => proxy.unanswered > 0, 10_000, 20)).toBe(true);
      stopWaitingForDatabase(db);
      // Refused within the stop's moment (2 s), far inside the 8 s a stopping server allows itself.
      const settled = await Promise.race([waiting, new Promise((r) => setTimeout(() => r("still waiting after 8 s"), 8_000))]);
      expect(settled).toBe("unavailable");
    } finally {
      proxy.restart();
    }
  });

  it("stops at once: a request waiting for the database answers 503, an event stream ends; never killed for it", async () => {
    const { alice } = await twoMembers();
    const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-stop-"));
    const logFile = path.join(logDir, "server.log");
    // DATABASE_WAIT_SECONDS far above the 10 s stop() allows before it kills: waiting it out cannot pass.
    const server = await ServerProcess.start(proxy.url, { DATABASE_WAIT_SECONDS: "60" }, { logFile });
    try {
      const token = await memberToken(t.db, alice.id);
      const stream = await fetch(server.baseUrl + buildPath("events"), { headers: { authorization: `Bearer ${token}` } });
      expect(stream.status).toBe(200);
      const streamEnded = (async () => {
        const reader = stream.body!.getReader();
        while (!(await reader.read().catch(() => ({ done: true }))).done);
      })();
      proxy.stop();
      // Its status, or why it has none: settled as it happens, so a connection cut is this test's
      // failure below rather than a rejection left unhandled while the test waits.
      const waiting = fetch(`${server.baseUrl}/api/me`, { headers: { authorization: `Bearer ${token}` } }).then(
        (r) => r.status,
        (e: Error) => `no answer: ${e.message}`,
      );
      // The request is in the server's hands (waiting for the database) before it is asked to stop.
      expect(await waitFor(() => fs.readFileSync(logFile, "utf8").includes("postgres connection error"), 10_000, 20)).toBe(true);
      await server.stop(); // SIGTERM, then SIGKILL 10 s later if the server has not exited
      expect(await waitFor(() => /exited \(/.test(fs.readFileSync(logFile, "utf8")), 10_000, 20)).toBe(true);
      const log = fs.readFileSync(logFile, "utf8");
      expect(log.split("\n").filter((l) => /exited|still|waited|waiting|stop/i.test(l))).toContainEqual(expect.stringMatching(/exited \(0\)/));
      expect(await waiting).toBe(503);
      await streamEnded;
    } finally {
      proxy.restart();
      await server.stop();
      fs.rmSync(logDir, { recursive: true, force: true });
    }
  });
});

describe("a server asked to stop after an event stream closed while its database was gone", () => {
  it("is not held by that stream's row, which it could not remove: it stops and exits 0", async () => {
    const { alice } = await twoMembers();
    const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-stop-"));
    const logFile = path.join(logDir, "server.log");
    const metricsPort = await freePort();
    const server = await ServerProcess.start(proxy.url, { DATABASE_WAIT_SECONDS: "60", METRICS_PORT: String(metricsPort) }, { logFile });
    // The streams open on the server, as its metrics count them: a stream's response closes in the
    // same moment as the server forgets the stream and begins removing its row.
    const metric = async (line: RegExp) => Number(line.exec(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text())?.[1]);
    const streamsOpen = () => metric(/^mutua_event_streams_open (\d+)$/m);
    try {
      const token = await memberToken(t.db, alice.id);
      const controller = new AbortController();
      const stream = await fetch(server.baseUrl + buildPath("events"), { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
      expect(stream.status).toBe(200);
      expect(await waitFor(async () => (await streamsOpen()) === 1, 10_000, 20)).toBe(true);
      proxy.stop();
      // Once the server's pool has seen its connections go (a removal on one it still thought alive
      // would fail at once rather than wait)...
      expect(await waitFor(async () => (await metric(/^mutua_db_pool_connections\{state="total"\} (\d+)$/m)) === 0, 10_000, 20)).toBe(true);
      // ...the member's tab closes its stream: the server removes the stream's row, waiting for the
      // database as a request does (DATABASE_WAIT_SECONDS, far above the 8 s a stop allows itself).
      controller.abort();
      expect(await waitFor(async () => (await streamsOpen()) === 0, 10_000, 20)).toBe(true);
      await server.stop(); // SIGTERM; the server exits 1 by itself if its stop hangs 8 s
      expect(await waitFor(() => /exited \(/.test(fs.readFileSync(logFile, "utf8")), 10_000, 20)).toBe(true);
      const log = fs.readFileSync(logFile, "utf8");
      expect(log.split("\n").filter((l) => /exited|still/.test(l))).toEqual([expect.stringMatching(/exited \(0\)/)]);
    } finally {
      proxy.restart();
      await server.stop();
      fs.rmSync(logDir, { recursive: true, force: true });
    }
  });
});

describe("a server asked to stop", () => {
  it("is not held by a connection that never sent a request, nor by one whose answer ends after the stop began", async () => {
    const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-stop-"));
    const logFile = path.join(logDir, "server.log");
    const server = await ServerProcess.start(t.tdb.url, {}, { logFile });
    try {
      const port = Number(new URL(server.baseUrl).port);
      // A client that connected and said nothing (as a pool's spare connection may).
      const silent = net.connect(port, "127.0.0.1");
      await new Promise((r) => silent.once("connect", r));
      silent.on("error", () => {});
      // A keep-alive connection whose answer was asked for just before the stop (answered, or cut
      // by the stop: either way settled here, never a rejection left unhandled while the test waits).
      const busy = fetch(`${server.baseUrl}/api/ready`, { keepalive: true }).catch(() => undefined);
      await server.stop(); // SIGTERM; the server exits 1 by itself if its stop hangs 8 s
      expect(await waitFor(() => /exited \(/.test(fs.readFileSync(logFile, "utf8")), 10_000, 20)).toBe(true);
      const log = fs.readFileSync(logFile, "utf8");
      expect(log.split("\n").filter((l) => /exited|still/.test(l))).toEqual([expect.stringMatching(/exited \(0\)/)]);
      await busy;
      silent.destroy();
    } finally {
      await server.stop();
      fs.rmSync(logDir, { recursive: true, force: true });
    }
  });
});
