/**
 * The dashboard's API calls on the demo association under 10 concurrent clients, against the
 * server's budget: p99 within 50 ms. Each client is a demo member signed in once, then loading
 * the dashboard again and again: profile, both validation rights, backends, accounts, the last 5
 * transactions of each wallet and the pending top-ups.
 *
 *   npm run bench:dashboard-concurrent -- [seconds = 10] [clients = 10]
 */
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { MutuaClient } from "@mutua/client";
import { buildApp } from "../apps/server/src/app";
import { startEmbeddedPostgres } from "../apps/server/src/db/embedded";
import { migrate } from "../apps/server/src/db/migrate";
import { createPool } from "../apps/server/src/db/pool";
import { DEMO_PASSWORD, seedDemo } from "../apps/server/src/demo/seed";
import { readSettings } from "../apps/server/src/settings";
import { outboxMailer } from "../apps/server/src/services/platform/mail";

const seconds = Number(process.argv[2] ?? 10);
const clients = Number(process.argv[3] ?? 10);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-bench-dash-"));
const pg = await startEmbeddedPostgres(dir, { log: () => {} });
try {
  await migrate(pg.url);
  const db = createPool(pg.url, 20);
  await seedDemo(db);
  const settings = readSettings({ HOST: "127.0.0.1", PORT: "0", WEB_DIR: path.join(dir, "no-web"), DATA_DIR: dir, LOG_LEVEL: "silent" });
  const app = await buildApp({ db, settings, mailer: outboxMailer(path.join(dir, "outbox"), "bench@localhost", () => {}) }, { logger: false });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const members = ["alice@example.com", "bob@example.com", "carol@example.com", "dan@example.com"];
  const times = new Map<string, number[]>();
  const timed = async <T>(name: string, f: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const r = await f();
    const list = times.get(name) ?? [];
    list.push(performance.now() - t);
    times.set(name, list);
    return r;
  };
  const sessions = await Promise.all(
    Array.from({ length: clients }, async (_, i) => {
      let token: string | null = null;
      const client = new MutuaClient({ baseUrl, getToken: () => token });
      token = (await client.call("login", { body: { login: members[i % members.length]!, password: DEMO_PASSWORD } })).token;
      return client;
    }),
  );
  const end = Date.now() + seconds * 1000;
  let loads = 0;
  await Promise.all(
    sessions.map(async (c) => {
      while (Date.now() < end) {
        await Promise.all([
          timed("profile", () => c.call("getMyContact")),
          timed("rights", () => c.call("getMyRights")),
          timed("backends", () => c.call("getBackends")),
        ]);
        const accounts = await timed("accounts", () => c.call("getAccounts"));
        await Promise.all(
          accounts.flatMap((a) => [
            timed("last 5 transactions", () => c.call("getTransactions", { params: { walletId: a.id }, query: { limit: 5 } })),
            timed("pending top-ups", () => c.call("getPendingTopUps", { query: { walletId: a.id } })),
          ]),
        );
        loads++;
      }
    }),
  );
  console.log(`\nDashboard API on the demo association, ${clients} concurrent clients for ${seconds} s (${loads} dashboard loads), ms:`);
  console.log("| call | requests | p50 | p99 | within 50 ms p99 |\n|---|---:|---:|---:|---|");
  const all: number[] = [];
  for (const [name, list] of times) {
    list.sort((a, b) => a - b);
    all.push(...list);
    const p99 = percentile(list, 99);
    console.log(`| ${name} | ${list.length} | ${percentile(list, 50).toFixed(1)} | ${p99.toFixed(1)} | ${p99 <= 50 ? "yes" : "no"} |`);
  }
  all.sort((a, b) => a - b);
  console.log(`| all | ${all.length} | ${percentile(all, 50).toFixed(1)} | ${percentile(all, 99).toFixed(1)} | ${percentile(all, 99) <= 50 ? "yes" : "no"} |`);
  await app.close();
  await db.end();
} finally {
  await pg.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
