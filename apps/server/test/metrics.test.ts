import { createRequire } from "node:module";
import Fastify from "fastify";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { routes } from "@mutua/domain";
import { createPool } from "../src/db/pool";
import { createMetrics, instrument, listenMetrics } from "../src/http/metrics";
import { readSettings } from "../src/settings";
import { runLedgerCheck } from "../src/services/board/ledger-health";
import { openCustodialWallet } from "../src/services/wallets/wallets";
import { Api, createBackend, freePort, http, memberToken, newKey, seedMember, TEST_PASSWORD, topUp } from "./helpers";
import { setupServerTest } from "./setup";

/**
 * The Prometheus metrics (http/metrics.ts): what an app counts and reads at scrape time, parsed
 * back with a Prometheus text-format parser as a scraper would, and their listener of its own.
 */

/** A metric family as parse-prometheus-text-format gives it (prom2json's shape; the package ships no types). */
interface Family {
  name: string;
  help: string;
  type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED";
  metrics: { labels?: Record<string, string>; value?: string; buckets?: Record<string, string>; count?: string; sum?: string }[];
}
const parsePrometheus = createRequire(import.meta.url)("parse-prometheus-text-format") as (text: string) => Family[];

const t = setupServerTest();

function family(families: Family[], name: string): Family {
  const f = families.find((x) => x.name === name);
  if (!f) throw new Error(`no metric family ${name}`);
  return f;
}
/** The value of the family's sample with exactly these labels, as a number (undefined: no such sample). */
function valueOf(families: Family[], name: string, labels: Record<string, string> = {}): number | undefined {
  const sample = family(families, name).metrics.find((m) => JSON.stringify(m.labels ?? {}) === JSON.stringify(labels));
  return sample?.value === undefined ? undefined : Number(sample.value);
}
const scrape = async (metrics = t.server.app.metrics) => parsePrometheus(await metrics.scrape());

describe("the app's metrics", () => {
  it("count requests by route pattern, the movements posted and refused, and read the pool, the outbox and the ledger's health", async () => {
    const base = t.server.baseUrl;
    const member = await seedMember(t.db);
    expect((await http(base, "POST", routes.login.path, { body: { login: member.email, password: TEST_PASSWORD } })).status).toBe(200);
    expect((await http(base, "GET", "/api/no-such-route/12345?x=1")).status).toBe(404);

    // Two members of a custodial backend: a payment, its replay (same key), one refused.
    const backend = await createBackend(t.db, { kind: "custodial" });
    const alice = await seedMember(t.db, { firstName: "Alice" });
    const bob = await seedMember(t.db, { firstName: "Bob" });
    const aliceWallet = await openCustodialWallet(t.db, backend, alice.id, "active");
    const bobWallet = await openCustodialWallet(t.db, backend, bob.id, "active");
    await topUp(t.db, aliceWallet, "10.00");
    const aliceApi = new Api(base, await memberToken(t.db, alice.id));
    const pay = (amount: string, key = newKey()) =>
      aliceApi.call("transfer", { body: { from: aliceWallet, to: bobWallet, parts: [{ account: "main", amount }], key } });
    const key = newKey();
    expect((await pay("3.00", key)).status).toBe(200);
    expect((await pay("3.00", key)).status).toBe(200);
    expect((await pay("100.00")).json.error.code).toBe("insufficient_balance");

    // A top-up credited by an administrator: posted in the validation's own transaction.
    const admin = new Api(base, await memberToken(t.db, (await seedMember(t.db, { canValidateCredits: true })).id));
    const order = await aliceApi.call("createTopUp", { body: { walletId: aliceWallet, amount: "5.00" } });
    expect(order.status).toBe(200);
    expect((await admin.call("markTopUpPaid", { body: { id: order.json.id } })).status).toBe(200);
    expect((await admin.call("validateCredit", { body: { id: order.json.id } })).status).toBe(200);
    // Validated again: answered the same, nothing posted.
    expect((await admin.call("validateCredit", { body: { id: order.json.id } })).status).toBe(200);

    expect(await runLedgerCheck(t.db, null)).toEqual({ ran: true, violations: [] });
    const families = await scrape();

    // Requests, by the route's pattern: never the URL asked (a series per id would be unbounded).
    expect(family(families, "mutua_http_requests_total").type).toBe("COUNTER");
    expect(valueOf(families, "mutua_http_requests_total", { route: routes.login.path, method: "POST", status: "200" })).toBe(1);
    expect(valueOf(families, "mutua_http_requests_total", { route: "unmatched", method: "GET", status: "404" })).toBe(1);
    expect(valueOf(families, "mutua_http_requests_total", { route: routes.transfer.path, method: "POST", status: "409" })).toBe(1);
    const routesSeen = family(families, "mutua_http_requests_total").metrics.map((m) => m.labels?.route ?? "");
    expect(routesSeen.filter((r) => r.includes("no-such-route") || r.includes("?"))).toEqual([]);
    // The parser gives a histogram's label sets as one sample (its limitation: buckets flattened,
    // count and sum dropped), so the per-route counts are the counter's above; here its buckets.
    const duration = family(families, "mutua_http_request_duration_seconds");
    expect(duration.type).toBe("HISTOGRAM");
    expect(Object.keys(duration.metrics[0]?.buckets ?? {})).toEqual(expect.arrayContaining(["0.005", "0.1", "1", "10", "+Inf"]));
    expect(Number(duration.metrics[0]?.buckets?.["+Inf"])).toBeGreaterThanOrEqual(1);
    const text = await t.server.app.metrics.scrape();
    expect(text).toContain(`mutua_http_request_duration_seconds_count{route="${routes.login.path}",method="POST"} 1`);

    // One payment (its replay is not another), one top-up; every kind is there from zero.
    expect(valueOf(families, "mutua_movements_posted_total", { kind: "payment" })).toBe(1);
    expect(valueOf(families, "mutua_movements_posted_total", { kind: "topup" })).toBe(1);
    expect(valueOf(families, "mutua_movements_posted_total", { kind: "retirement" })).toBe(0);
    expect(valueOf(families, "mutua_movements_refused_total", { reason: "insufficient_balance" })).toBe(1);
    // The payments went through the group commit alone (a batch of one each).
    const batches = family(families, "mutua_ledger_batch_size").metrics[0]!;
    expect(Number(batches.count)).toBeGreaterThanOrEqual(3);
    expect(Number(batches.buckets?.["1"])).toBeGreaterThanOrEqual(3);

    expect(valueOf(families, "mutua_db_pool_connections", { state: "total" })).toBeGreaterThanOrEqual(1);
    expect(valueOf(families, "mutua_db_pool_connections", { state: "idle" })).toBeGreaterThanOrEqual(0);
    expect(valueOf(families, "mutua_db_pool_connections", { state: "waiting" })).toBe(0);
    expect(valueOf(families, "mutua_db_pool_max_connections")).toBe(10);
    expect(valueOf(families, "mutua_database_up")).toBe(1);
    expect(valueOf(families, "mutua_notification_outbox_depth", { channel: "email" })).toBe(0);
    expect(valueOf(families, "mutua_notification_outbox_depth", { channel: "push" })).toBe(0);
    expect(valueOf(families, "mutua_notification_outbox_oldest_seconds", { channel: "email" })).toBe(0);
    expect(valueOf(families, "mutua_notification_deliveries_given_up", { channel: "email" })).toBe(0);
    expect(family(families, "mutua_ledger_health_ok").type).toBe("GAUGE");
    expect(valueOf(families, "mutua_ledger_health_ok")).toBe(1);
    expect(valueOf(families, "mutua_ledger_health_violations")).toBe(0);
    expect(Math.abs(valueOf(families, "mutua_ledger_health_checked_timestamp_seconds")! - Date.now() / 1000)).toBeLessThan(60);
    expect(valueOf(families, "mutua_event_streams_open")).toBe(0);
    // The process's own, from prom-client's defaults.
    expect(valueOf(families, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(family(families, "nodejs_heap_size_used_bytes").type).toBe("GAUGE");
  });

  it("show the notifications waiting and given up, by channel", async () => {
    const server = await t.startServer();
    const member = await seedMember(t.db);
    const wallet = await openCustodialWallet(t.db, await createBackend(t.db, { kind: "custodial" }), member.id, "active");
    const { rows } = await t.db.query<{ id: bigint }>(
      "INSERT INTO member_events (member_id, kind, wallet_id) VALUES ($1, 'wallet_approved', $2) RETURNING id",
      [member.id, wallet],
    );
    const event = rows[0]!.id;
    // Queued 90 seconds ago, its next attempt not due for an hour: no worker sends it meanwhile.
    await t.db.query(
      `INSERT INTO notification_deliveries (event_id, channel, kind, created_at, next_attempt_at)
       VALUES ($1, 'email', 'wallet_approved', now() - interval '90 seconds', now() + interval '1 hour')`,
      [event],
    );
    try {
      const families = await scrape(server.app.metrics);
      expect(valueOf(families, "mutua_notification_outbox_depth", { channel: "email" })).toBe(1);
      expect(valueOf(families, "mutua_notification_outbox_oldest_seconds", { channel: "email" })).toBeGreaterThanOrEqual(90);
      await t.db.query("UPDATE notification_deliveries SET gave_up_at = now() WHERE event_id = $1", [event]);
      const after = await scrape(server.app.metrics);
      expect(valueOf(after, "mutua_notification_outbox_depth", { channel: "email" })).toBe(0);
      expect(valueOf(after, "mutua_notification_deliveries_given_up", { channel: "email" })).toBe(1);
    } finally {
      await t.db.query("DELETE FROM notification_deliveries WHERE event_id = $1", [event]);
    }
  });

  it("count the event streams open", async () => {
    const server = await t.startServer();
    const member = await seedMember(t.db);
    const res = await fetch(`${server.baseUrl}${routes.events.path}`, { headers: { authorization: `Bearer ${await memberToken(t.db, member.id)}` } });
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    let text = "";
    while (!text.includes("event: ready")) text += new TextDecoder().decode((await reader.read()).value);
    expect(valueOf(await scrape(server.app.metrics), "mutua_event_streams_open")).toBe(1);
    await reader.cancel();
    await expect.poll(async () => valueOf(await scrape(server.app.metrics), "mutua_event_streams_open")).toBe(0);
  });

  it("answer a scrape when the database is down: its gauges left out, a warning logged", async () => {
    const lines: string[] = [];
    const app = Fastify({ logger: { level: "warn", stream: { write: (line: string) => void lines.push(line) } } });
    // Nothing listens there: every query fails at once.
    const dead = createPool(`postgres://postgres@127.0.0.1:${await freePort()}/none`, 2);
    const metrics = createMetrics();
    instrument(app, dead, metrics);
    try {
      const families = await scrape(metrics);
      expect(valueOf(families, "mutua_database_up")).toBe(0);
      for (const name of ["mutua_ledger_health_ok", "mutua_ledger_health_checked_timestamp_seconds", "mutua_notification_outbox_depth"])
        expect(families.find((f) => f.name === name)?.metrics ?? [], name).toEqual([]);
      expect(valueOf(families, "mutua_db_pool_connections", { state: "waiting" })).toBe(0);
      expect(lines.some((l) => JSON.parse(l).level === 40 && l.includes("the database could not be read"))).toBe(true);
    } finally {
      await app.close();
      await dead.end();
    }
  });
});

describe("the metrics' listener", () => {
  it("asks for the token when one is set (401 without it or with another), and answers the exposition format", async () => {
    const token = "metrics-token-0123456789";
    const listener = await listenMetrics(t.server.app.metrics, { port: 0, host: "127.0.0.1", token }, t.server.app.log);
    const url = `http://127.0.0.1:${listener.port}`;
    try {
      const none = await fetch(`${url}/metrics`);
      expect(none.status).toBe(401);
      expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect((await fetch(`${url}/metrics`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
      expect((await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}x` } })).status).toBe(401);
      const ok = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get("content-type")).toBe(Registry.PROMETHEUS_CONTENT_TYPE);
      expect(ok.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(family(parsePrometheus(await ok.text()), "mutua_http_requests_total").type).toBe("COUNTER");
      expect((await fetch(`${url}/other`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
      expect((await fetch(`${url}/metrics`, { method: "POST", headers: { authorization: `Bearer ${token}` } })).status).toBe(405);
    } finally {
      await listener.close();
    }
  });

  it("answers anyone who reaches it when no token is set", async () => {
    const listener = await listenMetrics(t.server.app.metrics, { port: 0, host: "127.0.0.1" }, t.server.app.log);
    try {
      expect((await fetch(`http://127.0.0.1:${listener.port}/metrics`)).status).toBe(200);
    } finally {
      await listener.close();
    }
  });

  it("is configured by METRICS_PORT, METRICS_HOST and METRICS_TOKEN: none without a port, the loopback interface by default", () => {
    expect(readSettings({}).metrics).toBeUndefined();
    expect(readSettings({ METRICS_PORT: "9464" }).metrics).toEqual({ port: 9464, host: "127.0.0.1" });
    expect(readSettings({ METRICS_PORT: "9464", METRICS_HOST: "0.0.0.0", METRICS_TOKEN: "s3cret" }).metrics).toEqual({
      port: 9464,
      host: "0.0.0.0",
      token: "s3cret",
    });
    expect(() => readSettings({ METRICS_PORT: "metrics" })).toThrow(/METRICS_PORT/);
    expect(() => readSettings({ METRICS_PORT: "70000" })).toThrow(/METRICS_PORT/);
  });
});
