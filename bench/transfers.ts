/**
 * Transfers per second and latency, through the HTTP API and through the ledger service alone,
 * with 1, 10 and 50 concurrent clients, next to a baseline of plain one-INSERT transactions on
 * the same database in the same run, so the ledger's own cost is visible. Then the market day
 * (one hot account, the shop's, locked by every payment): 50 clients each paying from its own
 * wallet into one shop's. And device-signed transfers (ledger wallets): signed beforehand, as a
 * phone would, so the clients' signing is not the server's time; the server's signature check is
 * timed apart.
 *
 *   npm run bench:transfers -- [seconds per cell = 5]
 *
 * Runs on an embedded PostgreSQL in a temp dir, then on BENCH_PG_URL when set (for example
 * postgres://postgres@127.0.0.1:5432/postgres), in a database it creates and drops.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { buildPath, canonicalTransferMessage } from "@mutua/domain";
import { encryptKeystore, newPrivateKey, recoverSigner, signMessage } from "@mutua/wallet";
import { buildApp } from "../apps/server/src/app";
import { startEmbeddedPostgres } from "../apps/server/src/db/embedded";
import { migrate } from "../apps/server/src/db/migrate";
import { createPool, type Db } from "../apps/server/src/db/pool";
import { readSettings } from "../apps/server/src/settings";
import { postMovement } from "../apps/server/src/services/ledger/ledger";
import { createMember } from "../apps/server/src/services/members/members";
import { createSession } from "../apps/server/src/services/members/sessions";
import {
  ensureSystemWallets,
  getBackend,
  openCustodialWallet,
  openLedgerWallet,
  systemWallet,
  type BackendRow,
} from "../apps/server/src/services/wallets/wallets";

const seconds = Number(process.argv[2] ?? 5);
if (!(seconds > 0)) {
  console.error("usage: npm run bench:transfers -- [seconds per cell > 0]");
  process.exit(2);
}
const CLIENTS = [1, 10, 50];
const POOL = 20;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

interface Cell {
  mode: string;
  clients: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

/** Runs `op` from `clients` loops for the set time; client i always uses its own pair of wallets. */
async function measure(mode: string, clients: number, op: (client: number) => Promise<void>): Promise<Cell> {
  const latencies: number[] = [];
  let errors = 0;
  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, i) => {
      while (performance.now() < deadline) {
        const start = performance.now();
        try {
          await op(i);
          latencies.push(performance.now() - start);
        } catch (e) {
          if (errors++ === 0) console.error(`  ${mode}: ${(e as Error).message}`);
        }
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  const sorted = latencies.sort((a, b) => a - b);
  return { mode, clients, perSecond: latencies.length / elapsed, p50: percentile(sorted, 50), p99: percentile(sorted, 99), errors };
}

async function setUp(db: Db) {
  const name = `bench-${randomBytes(4).toString("hex")}`;
  await db.query("INSERT INTO currencies (id, name, symbol) VALUES ($1, $1, 'BN')", [name]);
  await db.query("INSERT INTO backends (id, kind, name, currency_id) VALUES ($1, 'custodial', $2, $2)", [`custodial:${name}`, name]);
  const backend = (await getBackend(db, `custodial:${name}`)) as BackendRow;
  await ensureSystemWallets(db, backend);
  const issuance = (await systemWallet(db, backend.id, "issuance"))!;
  const max = Math.max(...CLIENTS);
  const pairs: { payer: string; payee: string; token: string }[] = [];
  for (let i = 0; i < max; i++) {
    const member = await createMember(db, { email: `${name}-${i}@bench.invalid`, firstName: "Bench", lastName: String(i), passwordHash: "unused" });
    const payee = await createMember(db, { email: `${name}-${i}-payee@bench.invalid`, firstName: "Payee", lastName: String(i), passwordHash: "unused" });
    const payer = await openCustodialWallet(db, backend, member, "active");
    await postMovement(db, {
      kind: "topup",
      payerWalletId: issuance.id,
      payeeWalletId: payer,
      parts: [{ account: "main", amount: 10_000_000_00n }],
      senderMemo: "",
      recipientMemo: "",
      idempotencyKey: `bench-seed-${i}`,
      initiatedBy: null,
    });
    pairs.push({ payer, payee: await openCustodialWallet(db, backend, payee, "active"), token: (await createSession(db, member, 3_600)).token });
  }
  await db.query(
    "CREATE TABLE IF NOT EXISTS bench_baseline (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, payer text NOT NULL, amount bigint NOT NULL, at timestamptz NOT NULL DEFAULT now())",
  );
  const shopOwner = await createMember(db, { email: `${name}-shop@bench.invalid`, firstName: "Shop", lastName: "Bench", passwordHash: "unused" });
  const shop = await openCustodialWallet(db, backend, shopOwner, "active");
  return { pairs, shop, signed: await setUpLedger(db, name, max) };
}

/** A ledger backend: each client's member gets a signed wallet with its key, and a payee's. */
async function setUpLedger(db: Db, name: string, count: number) {
  const ledgerName = `${name}-l`;
  await db.query("INSERT INTO backends (id, kind, name, currency_id) VALUES ($1, 'ledger', $2, $3)", [`ledger:${ledgerName}`, ledgerName, name]);
  const backend = (await getBackend(db, `ledger:${ledgerName}`)) as BackendRow;
  await ensureSystemWallets(db, backend);
  const issuance = (await systemWallet(db, backend.id, "issuance"))!;
  const out: { payer: string; payee: string; key: Uint8Array; token: string }[] = [];
  for (let i = 0; i < count; i++) {
    const wallet = async (label: string) => {
      const key = newPrivateKey();
      const member = await createMember(db, {
        email: `${ledgerName}-${i}-${label}@bench.invalid`,
        firstName: "Signed",
        lastName: `${label} ${i}`,
        passwordHash: "unused",
      });
      const id = await openLedgerWallet(db, backend, member, await encryptKeystore(key, "bench", { n: 1024 }), "active");
      return { id, key, member };
    };
    const payer = await wallet("payer");
    const payee = await wallet("payee");
    await postMovement(db, {
      kind: "topup",
      payerWalletId: issuance.id,
      payeeWalletId: payer.id,
      parts: [{ account: "nant", amount: 10_000_000_00n }],
      senderMemo: "",
      recipientMemo: "",
      idempotencyKey: `bench-ledger-seed-${i}`,
      initiatedBy: null,
    });
    out.push({ payer: payer.id, payee: payee.id, key: payer.key, token: (await createSession(db, payer.member, 3_600)).token });
  }
  return out;
}

/** A transfer body as a phone signs it: the canonical message, signed with the wallet's key. */
function signedBody(p: { payer: string; payee: string; key: Uint8Array }, key: string) {
  const body = {
    from: p.payer,
    to: p.payee,
    parts: [{ account: "nant" as const, amount: "0.01" }],
    senderMemo: "bench",
    recipientMemo: "",
    key,
    at: new Date().toISOString(),
  };
  return { ...body, signature: signMessage(p.key, canonicalTransferMessage(body)) };
}

async function benchDatabase(label: string, url: string): Promise<Cell[]> {
  await migrate(url);
  const db = createPool(url, POOL);
  const settings = readSettings({ ...process.env, HOST: "127.0.0.1", PORT: "0", DATABASE_POOL_SIZE: String(POOL) });
  const app = await buildApp({ db, settings, mailer: { send: async () => {} } });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  try {
    const { pairs, shop, signed } = await setUp(db);
    let seq = 0;
    const cells: Cell[] = [];
    for (const clients of CLIENTS) {
      cells.push(
        await measure("INSERT baseline", clients, async (i) => {
          const c = await db.connect();
          try {
            await c.query("BEGIN");
            await c.query("INSERT INTO bench_baseline (payer, amount) VALUES ($1, 1)", [pairs[i]!.payer]);
            await c.query("COMMIT");
          } finally {
            c.release();
          }
        }),
      );
      cells.push(
        await measure("ledger service", clients, async (i) => {
          await postMovement(db, {
            kind: "payment",
            payerWalletId: pairs[i]!.payer,
            payeeWalletId: pairs[i]!.payee,
            parts: [{ account: "main", amount: 1n }],
            senderMemo: "bench",
            recipientMemo: "bench",
            idempotencyKey: `bench-svc-${++seq}`,
            initiatedBy: null,
          });
        }),
      );
      cells.push(await measure("HTTP API", clients, (i) => httpTransfer(base, pairs[i]!, pairs[i]!.payee, `api-${++seq}-${i}-bench`)));
    }
    // The market day: every client pays the same shop, whose account every payment must lock.
    const hot = Math.max(...CLIENTS);
    cells.push(
      await measure("ledger service, one shop", hot, async (i) => {
        await postMovement(db, {
          kind: "payment",
          payerWalletId: pairs[i]!.payer,
          payeeWalletId: shop,
          parts: [{ account: "main", amount: 1n }],
          senderMemo: "bench",
          recipientMemo: "bench",
          idempotencyKey: `bench-hot-${++seq}`,
          initiatedBy: null,
        });
      }),
    );
    cells.push(await measure("HTTP API, one shop", hot, (i) => httpTransfer(base, pairs[i]!, shop, `api-hot-${++seq}-${i}`)));
    // Device-signed: each client's transfers signed before the clock starts, a phone's work.
    for (const clients of CLIENTS) {
      const ready = signed
        .slice(0, clients)
        .map((p, i) => Array.from({ length: Math.max(100, Math.ceil(3000 / clients)) }, (_, n) => signedBody(p, `signed-${clients}-${i}-${n}`)));
      cells.push(
        await measure("HTTP API, device-signed", clients, async (i) => {
          const body = ready[i]!.pop() ?? signedBody(signed[i]!, `signed-${clients}-${i}-${++seq}-late`);
          await post(base, signed[i]!.token, body);
        }),
      );
    }
    print(label, cells);
    console.log(
      `\nThe server's signature check (recovering the signer, @mutua/wallet): ${signatureCheckMicros().toFixed(0)} µs per device-signed transfer, on one core.`,
    );
    return cells;
  } finally {
    await app.close();
    await db.end();
  }
}

/** One payment of 0.01 through `POST /api/transfers`, as the app sends it. */
const httpTransfer = (base: string, from: { payer: string; token: string }, to: string, key: string) =>
  post(base, from.token, { from: from.payer, to, parts: [{ account: "main", amount: "0.01" }], senderMemo: "bench", key });

/**
 * The clients share this process's cores with the server (and the database), so they use the
 * lightest HTTP client Node has: node:http over kept-alive connections. fetch() (undici) cost
 * more CPU than the server's own handling of the request, which the figures would then show.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function post(base: string, token: string, body: unknown): Promise<void> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      base + buildPath("transfer"),
      {
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(data), authorization: `Bearer ${token}` },
      },
      (res) => {
        res.resume();
        res.on("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(data);
  });
}

/** What the server's signature check costs one transfer: recovering the signer of a canonical message. */
function signatureCheckMicros(): number {
  const key = newPrivateKey();
  const message = canonicalTransferMessage({
    from: "ledger:a",
    to: "ledger:b",
    parts: [{ account: "nant", amount: "0.01" }],
    senderMemo: "",
    recipientMemo: "",
    key: "k".repeat(20),
    at: new Date().toISOString(),
  });
  const signature = signMessage(key, message);
  const runs = 500;
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) recoverSigner(message, signature);
  return ((performance.now() - t0) / runs) * 1000;
}

function print(label: string, cells: Cell[]) {
  console.log(`\n${label} (${seconds} s per cell, pool ${POOL}, ${os.cpus().length} CPUs; server and clients share this process)`);
  console.log("| mode | clients | transfers/s | p50 ms | p99 ms | vs. INSERT baseline | errors |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const c of cells) {
    const base = cells.find((b) => b.mode === "INSERT baseline" && b.clients === c.clients)!;
    const ratio = c.mode === "INSERT baseline" ? "1.00" : (c.perSecond / base.perSecond).toFixed(2);
    console.log(`| ${c.mode} | ${c.clients} | ${c.perSecond.toFixed(0)} | ${c.p50.toFixed(1)} | ${c.p99.toFixed(1)} | ${ratio} | ${c.errors} |`);
  }
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-bench-"));
  const embedded = await startEmbeddedPostgres(dir, { log: () => {} });
  try {
    await benchDatabase("embedded PostgreSQL", embedded.url);
  } finally {
    await embedded.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const external = process.env.BENCH_PG_URL;
  if (external) {
    const name = `mutua_bench_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: external });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      const u = new URL(external);
      u.pathname = `/${name}`;
      await benchDatabase(`PostgreSQL at ${u.host}`, u.toString());
    } finally {
      // The pool's sockets close just after end() resolves; dropping sooner would cut them off noisily.
      await new Promise((r) => setTimeout(r, 500));
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exit(1);
});
