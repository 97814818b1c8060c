/**
 * Where the time of bench/federation.ts's payments goes (docs/performance.md "Where the time of a
 * payment across goes"), when run with BENCH_PROFILE=1: every statement the servers send, counted
 * and timed from this process (round trip and wait for a connection included), per payment and
 * per database; what PostgreSQL's sessions are doing, sampled every 5 ms (a lock waited for, the
 * WAL flushed, a transaction open while the server works); and, with BENCH_CPU_PROFILE=<file>, a
 * CPU profile of this process (the servers' and the clients') during the cells only, for Chrome's
 * DevTools or `npx speedscope`.
 */
import fs from "node:fs";
import { Session } from "node:inspector/promises";
import pg from "pg";

type Stat = { n: number; ms: number };

export interface Profile {
  stop(payments: number): Promise<void>;
}

export async function startProfile(adminUrl: string): Promise<Profile> {
  const statements = new Map<string, Stat>();
  const count = (db: string, text: string, ms: number) => {
    // The sampler's own.
    if (db === "postgres") return;
    const key = `${db}\t${text}`;
    const s = statements.get(key) ?? { n: 0, ms: 0 };
    s.n++;
    s.ms += ms;
    statements.set(key, s);
  };
  // Every query of every pool goes through Client.prototype.query, with a callback (the pool's) or a promise.
  const query = pg.Client.prototype.query;
  const patched = function (this: pg.Client & { connectionParameters?: { database?: string } }, ...args: unknown[]) {
    const start = performance.now();
    const db = this.connectionParameters?.database ?? "?";
    const first = args[0] as string | { text?: string; name?: string } | undefined;
    const text = (typeof first === "string" ? first : (first?.text ?? first?.name ?? "?")).replace(/\s+/g, " ").slice(0, 100);
    const done = () => count(db, text, performance.now() - start);
    const last = args.length - 1;
    if (typeof args[last] === "function") {
      const callback = args[last] as (...a: unknown[]) => void;
      args[last] = (...a: unknown[]) => (done(), callback(...a));
    }
    const out = (query as (...a: unknown[]) => unknown).apply(this, args);
    if (out instanceof Promise) out.then(done, done);
    return out;
  };
  pg.Client.prototype.query = patched as typeof query;

  const sampler = new pg.Client({ connectionString: adminUrl });
  await sampler.connect();
  const waits = new Map<string, number>();
  let sampling = true;
  const sampled = (async () => {
    while (sampling) {
      const { rows } = await sampler.query<{ db: string; state: string; wait: string; q: string }>(
        `SELECT datname AS db, state, coalesce(wait_event_type || ':' || wait_event, 'running') AS wait, left(regexp_replace(query, '\\s+', ' ', 'g'), 70) AS q
           FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() AND state <> 'idle'`,
      );
      for (const r of rows) waits.set(`${r.db}\t${r.state}\t${r.wait}\t${r.q}`, (waits.get(`${r.db}\t${r.state}\t${r.wait}\t${r.q}`) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();

  const cpuFile = process.env.BENCH_CPU_PROFILE;
  const session = new Session();
  if (cpuFile) {
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.start");
  }

  return {
    async stop(payments: number) {
      pg.Client.prototype.query = query;
      sampling = false;
      await sampled;
      await sampler.end();
      if (cpuFile) {
        const { profile } = await session.post("Profiler.stop");
        fs.writeFileSync(cpuFile, JSON.stringify(profile));
        session.disconnect();
      }
      const perDb = new Map<string, number>();
      for (const [key, s] of statements) perDb.set(key.split("\t")[0]!, (perDb.get(key.split("\t")[0]!) ?? 0) + s.n);
      console.log(`\nStatements per payment (${payments} payments): ${[...perDb].map(([db, n]) => `${db} ${(n / payments).toFixed(1)}`).join(", ")}\n`);
      console.log("| database | statement | per payment | mean ms |\n|---|---|---|---|");
      for (const [key, s] of [...statements].sort((x, y) => y[1].n - x[1].n).slice(0, 40)) {
        const [db, text] = key.split("\t");
        console.log(`| ${db} | \`${text}\` | ${(s.n / payments).toFixed(2)} | ${(s.ms / s.n).toFixed(2)} |`);
      }
      console.log("\n| samples (5 ms) | database | state | waiting for | statement |\n|---|---|---|---|---|");
      for (const [key, n] of [...waits].sort((x, y) => y[1] - x[1]).slice(0, 20)) console.log(`| ${n} | ${key.split("\t").join(" | ")} |`);
    },
  };
}
