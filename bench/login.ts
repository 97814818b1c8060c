/**
 * Login throughput and latency of a real server on a real PostgreSQL.
 *
 *   node --import tsx bench/login.ts [seconds=10] [concurrency=4]
 *
 * Uses DATABASE_URL when set (a member bench@mutua.invalid is upserted there and sessions are
 * written to it), else an embedded PostgreSQL in a temp dir, removed at the end. The password
 * hash cost is PASSWORD_HASH_COST (default 16), which dominates a login's cost by design.
 */
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { buildPath } from "@mutua/domain";
import { buildApp } from "../apps/server/src/app";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "../apps/server/src/db/embedded";
import { migrate } from "../apps/server/src/db/migrate";
import { createPool } from "../apps/server/src/db/pool";
import { readSettings } from "../apps/server/src/settings";
import { createMember } from "../apps/server/src/services/members/members";
import { DEFAULT_COST, hashPassword } from "../apps/server/src/services/members/passwords";

const seconds = Number(process.argv[2] ?? 10);
const concurrency = Number(process.argv[3] ?? 4);
if (!(seconds > 0) || !Number.isInteger(concurrency) || concurrency < 1) {
  console.error("usage: node --import tsx bench/login.ts [seconds>0] [concurrency>=1]");
  process.exit(2);
}

const EMAIL = "bench@mutua.invalid";
const PASSWORD = "Bench1234!";
const HUGE = "1000000000";

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main() {
  const cleanups: (() => Promise<void> | void)[] = [];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) await Promise.resolve(c()).catch((e: unknown) => console.error("cleanup:", e));
    cleanups.length = 0;
  };
  process.once("SIGINT", () => void cleanup().then(() => process.exit(130)));

  try {
    let url = process.env.DATABASE_URL;
    let where = "DATABASE_URL";
    if (!url) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-bench-"));
      cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
      const embedded: EmbeddedPostgres = await startEmbeddedPostgres(dir, { log: () => {} });
      cleanups.push(() => embedded.stop());
      url = embedded.url;
      where = `embedded PostgreSQL in ${dir}`;
    }
    await migrate(url);
    const db = createPool(url, Number(process.env.DATABASE_POOL_SIZE ?? 10));
    cleanups.push(() => db.end());

    const passwordHash = await hashPassword(PASSWORD);
    await createMember(db, { email: EMAIL, firstName: "Bench", lastName: "Mark", passwordHash }).catch(async (e: { code?: string }) => {
      if (e.code !== "email_taken") throw e;
      await db.query("UPDATE members SET password_hash = $2 WHERE email = $1", [EMAIL, passwordHash]);
    });

    // Every request comes from 127.0.0.1 for one account: the limits would stop the bench at once.
    const settings = readSettings({
      ...process.env,
      HOST: "127.0.0.1",
      PORT: "0",
      RATE_LIMIT_LOGIN_IP_MAX: HUGE,
      RATE_LIMIT_LOGIN_ACCOUNT_MAX: HUGE,
    });
    const mailer = { send: async () => {} };
    const app = await buildApp({ db, settings, mailer });
    await app.listen({ host: "127.0.0.1", port: 0 });
    cleanups.push(() => app.close());
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    const body = JSON.stringify({ login: EMAIL, password: PASSWORD });
    const warm = await fetch(base + buildPath("login"), { method: "POST", headers: { "content-type": "application/json" }, body });
    if (warm.status !== 200) throw new Error(`warm-up login failed: HTTP ${warm.status} ${await warm.text()}`);

    console.log(
      `Mutua login bench: ${seconds} s, ${concurrency} concurrent clients, scrypt cost ${DEFAULT_COST} (N=2^${DEFAULT_COST}), ${os.cpus().length} CPUs`,
    );
    console.log(`database: ${where}; server and clients share this process`);

    const latencies: number[] = [];
    const errors = new Map<string, number>();
    const t0 = performance.now();
    const deadline = t0 + seconds * 1000;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < deadline) {
          const start = performance.now();
          try {
            const res = await fetch(base + buildPath("login"), { method: "POST", headers: { "content-type": "application/json" }, body });
            await res.arrayBuffer();
            if (res.status === 200) latencies.push(performance.now() - start);
            else errors.set(`HTTP ${res.status}`, (errors.get(`HTTP ${res.status}`) ?? 0) + 1);
          } catch (e) {
            const k = (e as Error).message;
            errors.set(k, (errors.get(k) ?? 0) + 1);
          }
        }
      }),
    );
    const elapsed = (performance.now() - t0) / 1000;

    const sorted = [...latencies].sort((a, b) => a - b);
    const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    const rows: [string, string][] = [
      ["requests", String(latencies.length + errorCount)],
      ["successful logins", String(latencies.length)],
      ["logins/s", (latencies.length / elapsed).toFixed(2)],
      ["latency p50", ms(percentile(sorted, 50))],
      ["latency p95", ms(percentile(sorted, 95))],
      ["latency p99", ms(percentile(sorted, 99))],
      ["latency max", ms(sorted[sorted.length - 1] ?? NaN)],
      ["errors", String(errorCount)],
    ];
    console.log("");
    for (const [k, v] of rows) console.log(`  ${k.padEnd(18)} ${v.padStart(12)}`);
    for (const [k, n] of errors) console.log(`    ${n} x ${k}`);
    console.log("");
  } finally {
    await cleanup();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exit(1);
});
