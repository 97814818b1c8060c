/**
 * Payments across a link between two local servers (each with its own database), per second and
 * their latency (p50, p99), beside local payments made in the same run on the payer's server, with
 * 1 and 10 clients. A payment across is three signed exchanges between the servers (a quote, the
 * payment, none other when all goes well) and a transaction on each side, each payment locking
 * its side's clearing wallet: the local "one shop" cell (every client paying the same wallet) is
 * the local payment that contends as much.
 *
 *   npm run bench:federation -- [seconds per cell = 5]
 *
 * Runs on an embedded PostgreSQL in a temp dir: two databases in it, two servers in this process.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { buildPath, routes } from "@mutua/domain";
import { buildApp } from "../apps/server/src/app";
import { startEmbeddedPostgres } from "../apps/server/src/db/embedded";
import { migrate } from "../apps/server/src/db/migrate";
import { createPool, type Db } from "../apps/server/src/db/pool";
import { readSettings } from "../apps/server/src/settings";
import { postMovement } from "../apps/server/src/services/ledger/ledger";
import { createMember } from "../apps/server/src/services/members/members";
import { createSession } from "../apps/server/src/services/members/sessions";
import { ensureSystemWallets, getBackend, openCustodialWallet, systemWallet, type BackendRow } from "../apps/server/src/services/wallets/wallets";

const seconds = Number(process.argv[2] ?? 5);
if (!(seconds > 0)) {
  console.error("usage: npm run bench:federation -- [seconds per cell > 0]");
  process.exit(2);
}
const CLIENTS = [1, 10];
const POOL = 10;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

interface Cell {
  mode: string;
  clients: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

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

interface Server {
  db: Db;
  url: string;
  close(): Promise<void>;
}

/** A set-up association (its currency, a custodial backend) and its server, on database `name` of the cluster. */
async function association(adminUrl: string, name: string, symbol: string): Promise<Server & { backend: BackendRow }> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  const db = createPool(url.toString(), POOL);
  await db.query("INSERT INTO currencies (id, name, symbol) VALUES ('association', $1, $1)", [symbol]);
  await db.query("INSERT INTO association (name, currency_id) VALUES ($1, 'association')", [`Association ${symbol}`]);
  await db.query("INSERT INTO backends (id, kind, name, currency_id) VALUES ('custodial:main', 'custodial', 'main', 'association')");
  const backend = (await getBackend(db, "custodial:main"))!;
  await ensureSystemWallets(db, backend);
  // The port first: the server's PUBLIC_URL is the address its signatures name.
  const probe = await new Promise<number>((r) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => r(port));
    });
  });
  const publicUrl = `http://127.0.0.1:${probe}`;
  // The two servers reach each other on the loopback, over plain HTTP: the operator's setting allows it.
  const settings = readSettings({
    ...process.env,
    HOST: "127.0.0.1",
    PORT: String(probe),
    PUBLIC_URL: publicUrl,
    DATABASE_POOL_SIZE: String(POOL),
    FEDERATION_ALLOW_LOOPBACK_HTTP: "true",
  });
  const app = await buildApp({ db, settings, mailer: { send: async () => {} } });
  await app.listen({ host: "127.0.0.1", port: probe });
  return { db, url: publicUrl, backend, close: async () => (await app.close(), await db.end()) };
}

async function member(db: Db, label: string, owner = false) {
  const id = await createMember(db, {
    email: `${label}-${randomBytes(4).toString("hex")}@bench.invalid`,
    firstName: label,
    lastName: "Bench",
    passwordHash: "unused",
    canManageAssociation: owner,
  });
  return { id, token: (await createSession(db, id, 3_600)).token };
}

async function call(base: string, token: string, name: keyof typeof routes, body?: unknown, params: Record<string, string> = {}) {
  const route = routes[name];
  const res = await fetch(base + buildPath(name, params as never), {
    method: route.method,
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as Record<string, unknown> & { links?: { id: string }[]; code?: string; state?: string };
  if (!res.ok) throw new Error(`${name}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function fund(db: Db, backend: BackendRow, wallet: string) {
  const issuance = (await systemWallet(db, backend.id, "issuance"))!;
  await postMovement(db, {
    kind: "topup",
    payerWalletId: issuance.id,
    payeeWalletId: wallet,
    parts: [{ account: "main", amount: 10_000_000_00n }],
    senderMemo: "",
    recipientMemo: "",
    idempotencyKey: `bench-fund-${randomBytes(6).toString("hex")}`,
    initiatedBy: null,
  });
}

function print(cells: Cell[]) {
  console.log("| payment | clients | per second | p50 ms | p99 ms | errors | per second, across ÷ local (own payee) |");
  console.log("|---|---|---|---|---|---|---|");
  for (const c of cells) {
    const local = cells.find((x) => x.mode === "local, own payee" && x.clients === c.clients)!;
    const ratio = c.mode === "across the link" ? (c.perSecond / local.perSecond).toFixed(2) : "";
    console.log(`| ${c.mode} | ${c.clients} | ${c.perSecond.toFixed(0)} | ${c.p50.toFixed(1)} | ${c.p99.toFixed(1)} | ${c.errors} | ${ratio} |`);
  }
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-bench-federation-"));
  const pgs = await startEmbeddedPostgres(dir, { log: () => {} });
  const a = await association(pgs.adminUrl, "fed_a", "AAA");
  const b = await association(pgs.adminUrl, "fed_b", "BBB");
  try {
    // The owners link A and B: B holds up to a billion of A's currency, so the limit is never what stops it.
    const [ownerA, ownerB] = [await member(a.db, "OwnerA", true), await member(b.db, "OwnerB", true)];
    const limit = "1000000000.00";
    const { code } = await call(a.url, ownerA.token, "createFederationInvitation");
    await call(b.url, ownerB.token, "acceptFederationInvitation", { code, terms: { ourValue: "0.8", theirValue: "1", trustLimit: limit, enabled: true } });
    const [link] = (await call(a.url, ownerA.token, "listFederationLinks")).links!;
    await call(
      a.url,
      ownerA.token,
      "confirmFederationLink",
      { terms: { ourValue: "1", theirValue: "0.8", trustLimit: limit, enabled: true } },
      { linkId: link!.id },
    );

    const max = Math.max(...CLIENTS);
    const clients: { token: string; wallet: string; localPayee: string; remotePayee: string }[] = [];
    for (let i = 0; i < max; i++) {
      const payer = await member(a.db, `Payer${i}`);
      const wallet = await openCustodialWallet(a.db, a.backend, payer.id, "active");
      await fund(a.db, a.backend, wallet);
      const localPayee = await openCustodialWallet(a.db, a.backend, (await member(a.db, `Payee${i}`)).id, "active");
      const remotePayee = await openCustodialWallet(b.db, b.backend, (await member(b.db, `Shop${i}`)).id, "active");
      clients.push({ token: payer.token, wallet, localPayee, remotePayee });
    }
    const shop = await openCustodialWallet(a.db, a.backend, (await member(a.db, "Shop")).id, "active");
    let seq = 0;
    const key = () => `bench-${process.pid}-${++seq}`;
    const cells: Cell[] = [];
    for (const n of CLIENTS) {
      cells.push(
        await measure("local, own payee", n, async (i) => {
          const c = clients[i]!;
          await call(a.url, c.token, "transfer", { from: c.wallet, to: c.localPayee, parts: [{ account: "main", amount: "0.01" }], key: key() });
        }),
      );
      cells.push(
        await measure("local, one shop", n, async (i) => {
          const c = clients[i]!;
          await call(a.url, c.token, "transfer", { from: c.wallet, to: shop, parts: [{ account: "main", amount: "0.01" }], key: key() });
        }),
      );
      cells.push(
        await measure("across the link", n, async (i) => {
          const c = clients[i]!;
          const paid = await call(a.url, c.token, "payAcross", {
            from: c.wallet,
            server: b.url,
            walletId: c.remotePayee,
            amount: "0.05",
            payerAmount: "0.04",
            key: key(),
          });
          if (paid.state !== "committed") throw new Error(`payment ${paid.state}`);
        }),
      );
    }
    console.log(`\nPayments across a link, two local servers on one embedded PostgreSQL (two databases), ${seconds} s per cell:\n`);
    print(cells);
    const held = (await b.db.query<{ held_cents: bigint }>("SELECT held_cents FROM federation_links")).rows[0]!.held_cents;
    const clearing = (
      await a.db.query<{ t: string }>("SELECT sum(a.balance)::text AS t FROM accounts a JOIN wallets w ON w.id = a.wallet_id WHERE w.role = 'clearing'")
    ).rows[0]!.t;
    console.log(`\nA's clearing balance ${clearing} cents, B's record of it ${held} cents: ${String(held) === clearing ? "equal" : "DIFFERENT"}`);
  } finally {
    await a.close();
    await b.close();
    await pgs.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
