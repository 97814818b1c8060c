/**
 * Live money under many open apps: N members each keep an event stream open on one
 * server instance (a process of its own, as in production), and a payment is made to each of them.
 * Prints how long each payment took to reach its payee's stream after the payment was acknowledged
 * (p50, p99), and the server's memory per open stream. The baseline, measured in the same run, is
 * the same with 10 streams: the ratio says what the many streams cost each delivery.
 *
 *   npm run bench:events -- [streams = 2000] [payments in flight = 20]
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildPath, type MemberEvent } from "@mutua/domain";
import { startEmbeddedPostgres } from "../apps/server/src/db/embedded";
import { migrate } from "../apps/server/src/db/migrate";
import { createPool, type Db } from "../apps/server/src/db/pool";
import { seedDemo } from "../apps/server/src/demo/seed";
import { postMovement } from "../apps/server/src/services/ledger/ledger";
import { createMember } from "../apps/server/src/services/members/members";
import { createSession } from "../apps/server/src/services/members/sessions";
import { getBackend, openCustodialWallet, systemWallet } from "../apps/server/src/services/wallets/wallets";

const streams = Number(process.argv[2] ?? 2000);
const inFlight = Number(process.argv[3] ?? 20);
const BASELINE = 10;
const ROOT = path.resolve(import.meta.dirname, "..");
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

interface Member {
  wallet: string;
  token: string;
}

/** Members with a wallet and a session each; the first one pays the others. */
async function members(db: Db, n: number, tag: string): Promise<Member[]> {
  const backend = (await getBackend(db, "custodial:demo-lokal"))!;
  const out: Member[] = [];
  for (let i = 0; i < n; i++) {
    const id = await createMember(db, { email: `${tag}-${i}@bench.example`, firstName: "Bench", lastName: `${tag} ${i}`, passwordHash: "x" });
    out.push({ wallet: await openCustodialWallet(db, backend, id), token: (await createSession(db, id, 3600)).token });
  }
  return out;
}

/** The server's resident memory, from the kernel. */
const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]);

/** Opens a stream per member; resolves each payment's arrival by its transaction id. */
async function openStreams(baseUrl: string, list: Member[], arrived: Map<string, number>, stop: AbortSignal) {
  await Promise.all(
    list.map(async (m) => {
      const res = await fetch(`${baseUrl}${buildPath("events")}`, { headers: { Authorization: `Bearer ${m.token}` }, signal: stop });
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = "";
      let ready!: () => void;
      const opened = new Promise<void>((r) => (ready = r));
      void (async () => {
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return;
            text += decoder.decode(value, { stream: true });
            let end: number;
            while ((end = text.indexOf("\n\n")) >= 0) {
              const block = text.slice(0, end);
              text = text.slice(end + 2);
              if (block.includes("event: ready")) ready();
              const data = /^data: (\{.*\})$/m.exec(block)?.[1];
              if (data && !block.includes("event:")) {
                const e = JSON.parse(data) as MemberEvent;
                if (e.transactionId) arrived.set(e.transactionId, performance.now());
              }
            }
          }
        } catch {
          /* aborted at the end */
        }
      })();
      await opened;
    }),
  );
}

async function run(db: Db, baseUrl: string, payer: Member, payees: Member[], pid: number) {
  const arrived = new Map<string, number>();
  const stop = new AbortController();
  const before = rssKb(pid);
  const t0 = performance.now();
  await openStreams(baseUrl, payees, arrived, stop.signal);
  const openMs = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 500));
  const memory = rssKb(pid) - before;
  const acked = new Map<string, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < payees.length) {
        const to = payees[next++]!;
        const res = await fetch(`${baseUrl}${buildPath("transfer")}`, {
          method: "POST",
          headers: { Authorization: `Bearer ${payer.token}`, "content-type": "application/json" },
          body: JSON.stringify({ from: payer.wallet, to: to.wallet, parts: [{ account: "main", amount: "0.01" }], key: randomBytes(12).toString("hex") }),
        });
        const { id } = (await res.json()) as { id: string };
        acked.set(id, performance.now());
      }
    }),
  );
  const deadline = Date.now() + 30_000;
  while (arrived.size < acked.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  stop.abort();
  const delays = [...acked].map(([id, at]) => Math.max(0, (arrived.get(id) ?? Infinity) - at)).sort((a, b) => a - b);
  return { openMs, memoryKb: memory, delivered: [...acked.keys()].filter((id) => arrived.has(id)).length, payments: acked.size, delays };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-bench-events-"));
const pg = await startEmbeddedPostgres(dir, { log: () => {} });
const port = 20000 + Math.floor(Math.random() * 10000);
const server = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
  cwd: ROOT,
  env: { ...process.env, DATABASE_URL: pg.url, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dir, LOG_LEVEL: "silent", DATABASE_POOL_SIZE: "20" },
  stdio: ["ignore", "pipe", "inherit"],
});
try {
  await migrate(pg.url);
  const db = createPool(pg.url, 5);
  await seedDemo(db);
  await new Promise<void>((resolve) => server.stdout!.on("data", (d: Buffer) => d.toString().includes("Mutua is running") && resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const [payer] = await members(db, 1, "payer");
  const issuance = (await systemWallet(db, "custodial:demo-lokal", "issuance"))!.id;
  await postMovement(db, {
    kind: "topup",
    payerWalletId: issuance,
    payeeWalletId: payer!.wallet,
    parts: [{ account: "main", amount: 10_000_000n }],
    senderMemo: "",
    recipientMemo: "",
    idempotencyKey: "bench-events-funds",
    initiatedBy: null,
  });
  const base = await run(db, baseUrl, payer!, await members(db, BASELINE, "base"), server.pid!);
  const many = await run(db, baseUrl, payer!, await members(db, streams, "many"), server.pid!);
  const row = (name: string, r: typeof base, n: number) =>
    `| ${name} | ${n} | ${r.delivered}/${r.payments} | ${percentile(r.delays, 50).toFixed(1)} | ${percentile(r.delays, 99).toFixed(1)} | ${(r.openMs / 1000).toFixed(1)} s | ${(r.memoryKb / n).toFixed(1)} KB |`;
  console.log(
    `\nA payment to each member whose stream is open on one server process (${inFlight} payments in flight); delivery after the payment was acknowledged, ms:`,
  );
  console.log("| run | open streams | delivered | p50 | p99 | all opened in | server memory per stream |\n|---|---:|---:|---:|---:|---:|---:|");
  console.log(row("baseline", base, BASELINE));
  console.log(row("many", many, streams));
  console.log(`\np99 with ${streams} streams / p99 with ${BASELINE}: ${(percentile(many.delays, 99) / percentile(base.delays, 99)).toFixed(2)}×`);
  await db.end();
} finally {
  server.kill("SIGTERM");
  await new Promise((r) => server.once("exit", r));
  await pg.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
