/**
 * Payments across a link between local servers (each with its own database), per second and
 * their latency (p50, p99), beside local payments made in the same run on the payer's server, with
 * 1 and 10 clients. A payment across is two signed exchanges between the servers (a quote, the
 * payment, none other when all goes well) and a transaction on each side, each payment locking
 * its side's clearing wallet: the local "one shop" cell (every client paying the same wallet) is
 * the local payment that contends as much. A payment through an association both trust (two
 * hops: A's member pays a member of C through B, which forwards for A) adds B's hold and its
 * exchanges with C; its ratio is to the one-hop payment of the same run.
 *
 *   npm run bench:federation -- [seconds per cell = 5] [cells, e.g. "across the link:10;two hops, through B:10"]
 *
 * Runs on an embedded PostgreSQL in a temp dir: three databases in it, three servers in this process.
 * BENCH_PROFILE=1 also prints where the time goes (bench/federation-profile.ts); with only the
 * cells named, the profile is theirs.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { buildPath, routes } from "@mutua/domain";
import { buildApp } from "../apps/server/src/app";
import { startProfile } from "./federation-profile";
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
const ONLY = process.argv[3]?.split(";") ?? null;
const POOL = 10;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

interface Cell {
  mode: string;
  clients: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  count: number;
  /** CPU time per payment, in ms: this process's (the three servers and the clients), and PostgreSQL's. */
  nodeCpu: number;
  pgCpu: number;
}

/**
 * CPU seconds PostgreSQL has used: its postmaster's and its live backends', and those of the
 * backends that ended (counted in the postmaster's children's time once reaped). From /proc, so
 * on Linux only (NaN elsewhere). The machine's other work does not count in it, as it does in a
 * rate: on shared cores, the cost of a payment is the steadier figure.
 */
let postmasterPid = 0;
function pgCpuSeconds(): number {
  const tick = 100; // USER_HZ on Linux
  try {
    let total = 0;
    for (const pid of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      let stat: string;
      try {
        stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      } catch {
        continue;
      }
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // Fields from the state on (field 3): ppid is 4, utime 14, stime 15, cutime 16, cstime 17.
      const [ppid, utime, stime, cutime, cstime] = [f[1], f[11], f[12], f[13], f[14]].map(Number) as [number, number, number, number, number];
      if (Number(pid) === postmasterPid) total += utime + stime + cutime + cstime;
      else if (ppid === postmasterPid) total += utime + stime;
    }
    return total / tick;
  } catch {
    return NaN;
  }
}

async function measure(mode: string, clients: number, op: (client: number) => Promise<void>): Promise<Cell> {
  if (ONLY && !ONLY.includes(`${mode}:${clients}`)) return { mode, clients, perSecond: NaN, p50: NaN, p99: NaN, errors: 0, count: 0, nodeCpu: NaN, pgCpu: NaN };
  const latencies: number[] = [];
  let errors = 0;
  const cpu0 = process.cpuUsage();
  const pg0 = pgCpuSeconds();
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
  const cpu = process.cpuUsage(cpu0);
  const pgCpu = pgCpuSeconds() - pg0;
  const sorted = latencies.sort((a, b) => a - b);
  const n = latencies.length;
  return {
    mode,
    clients,
    perSecond: n / elapsed,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    errors,
    count: n,
    nodeCpu: (cpu.user + cpu.system) / 1000 / n,
    pgCpu: (pgCpu * 1000) / n,
  };
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

type Owned = Server & { owner: { token: string } };

/** Links `x` and `y` (x invites, y accepts, x confirms): `y` holds up to `limit` of x's currency, `x` of y's; one of y's is worth `rate` of x's. */
async function link(x: Owned, y: Owned, rate: string, limit: string) {
  const { code } = await call(x.url, x.owner.token, "createFederationInvitation");
  await call(y.url, y.owner.token, "acceptFederationInvitation", { code, terms: { ourValue: rate, theirValue: "1", trustLimit: limit, enabled: true } });
  const atX = (await call(x.url, x.owner.token, "listFederationLinks")).links!.find((l) => (l as { state?: string }).state === "accepted")!;
  await call(
    x.url,
    x.owner.token,
    "confirmFederationLink",
    { terms: { ourValue: "1", theirValue: rate, trustLimit: limit, enabled: true } },
    { linkId: atX.id },
  );
}

/** What `x`'s clearing wallets for its link with `y` hold (cents), and what `y` records it holds of x's currency. */
async function clearingAndHeld(x: Server, y: Server): Promise<{ clearing: string; held: string }> {
  const { rows } = await x.db.query<{ t: string | null }>(
    `SELECT sum(a.balance)::text AS t FROM accounts a JOIN wallets w ON w.id = a.wallet_id JOIN federation_links l ON l.id = w.federation_link_id
      WHERE w.role = 'clearing' AND l.peer_url = $1`,
    [y.url],
  );
  const { rows: held } = await y.db.query<{ h: string }>("SELECT held_cents::text AS h FROM federation_links WHERE peer_url = $1 AND state = 'active'", [
    x.url,
  ]);
  return { clearing: rows[0]!.t ?? "0", held: held[0]!.h };
}

const ratioTo = (c: Cell, cells: Cell[], mode: string) => {
  const to = cells.find((x) => x.mode === mode && x.clients === c.clients);
  return to ? (c.perSecond / to.perSecond).toFixed(2) : "";
};

function print(cells: Cell[]) {
  console.log(
    "| payment | clients | per second | p50 ms | p99 ms | errors | per second, across ÷ local (own payee) | per second, two hops ÷ one | CPU ms per payment: node / PostgreSQL |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const c of cells) {
    const across = c.mode === ACROSS ? ratioTo(c, cells, LOCAL) : "";
    const twoHops = c.mode === THROUGH ? ratioTo(c, cells, ACROSS) : "";
    const cpu = `${c.nodeCpu.toFixed(1)} / ${c.pgCpu.toFixed(1)}`;
    console.log(
      `| ${c.mode} | ${c.clients} | ${c.perSecond.toFixed(0)} | ${c.p50.toFixed(1)} | ${c.p99.toFixed(1)} | ${c.errors} | ${across} | ${twoHops} | ${cpu} |`,
    );
  }
}

const LOCAL = "local, own payee";
const ACROSS = "across the link";
const THROUGH = "two hops, through B";

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-bench-federation-"));
  const pgs = await startEmbeddedPostgres(dir, { log: () => {} });
  postmasterPid = pgs.pid;
  const started: Server[] = [];
  try {
    const owned = async (name: string, symbol: string) => {
      const s = await association(pgs.adminUrl, name, symbol);
      started.push(s);
      return { ...s, owner: await member(s.db, `Owner${symbol}`, true) };
    };
    const a = await owned("fed_a", "AAA");
    const b = await owned("fed_b", "BBB");
    const c = await owned("fed_c", "CCC");
    // A and B linked, B and C linked (not A and C): each holds up to a billion of the other's
    // currency, so the limit is never what stops it. One of B's is 0.8 of A's, one of C's 1.25 of B's.
    const limit = "1000000000.00";
    await link(a, b, "0.8", limit);
    await link(b, c, "1.25", limit);
    // B forwards A's payments; A hears of it (B tells A what it reaches) before the clock starts.
    const withA = (await call(b.url, b.owner.token, "listFederationLinks")).links!.find((l) => (l as { peerUrl?: string }).peerUrl === a.url)!;
    await call(b.url, b.owner.token, "setFederationLinkForwarding", { forward: true }, { linkId: withA.id });
    for (let t = 0; ; t++) {
      if ((await a.db.query("SELECT 1 FROM federation_routes WHERE url = $1", [c.url])).rowCount) break;
      if (t > 100) throw new Error("A never heard that B reaches C");
      await new Promise((r) => setTimeout(r, 100));
    }

    const max = Math.max(...CLIENTS);
    const clients: { token: string; wallet: string; localPayee: string; remotePayee: string; farPayee: string }[] = [];
    for (let i = 0; i < max; i++) {
      const payer = await member(a.db, `Payer${i}`);
      const wallet = await openCustodialWallet(a.db, a.backend, payer.id, "active");
      await fund(a.db, a.backend, wallet);
      const localPayee = await openCustodialWallet(a.db, a.backend, (await member(a.db, `Payee${i}`)).id, "active");
      const remotePayee = await openCustodialWallet(b.db, b.backend, (await member(b.db, `Shop${i}`)).id, "active");
      const farPayee = await openCustodialWallet(c.db, c.backend, (await member(c.db, `Far${i}`)).id, "active");
      clients.push({ token: payer.token, wallet, localPayee, remotePayee, farPayee });
    }
    const shop = await openCustodialWallet(a.db, a.backend, (await member(a.db, "Shop")).id, "active");
    // What 0.05 of C's currency costs A's member through B, as A's quote says (each hop rounded once).
    const far = await call(a.url, clients[0]!.token, "quoteCrossPayment", { server: c.url, walletId: clients[0]!.farPayee, amount: "0.05" });
    const farPayerAmount = String(far.payerAmount);
    let seq = 0;
    const key = () => `bench-${process.pid}-${++seq}`;
    const cells: Cell[] = [];
    const profile = process.env.BENCH_PROFILE ? await startProfile(pgs.adminUrl) : null;
    for (const n of CLIENTS) {
      cells.push(
        await measure(LOCAL, n, async (i) => {
          const x = clients[i]!;
          await call(a.url, x.token, "transfer", { from: x.wallet, to: x.localPayee, parts: [{ account: "main", amount: "0.01" }], key: key() });
        }),
      );
      cells.push(
        await measure("local, one shop", n, async (i) => {
          const x = clients[i]!;
          await call(a.url, x.token, "transfer", { from: x.wallet, to: shop, parts: [{ account: "main", amount: "0.01" }], key: key() });
        }),
      );
      cells.push(
        await measure(ACROSS, n, async (i) => {
          const x = clients[i]!;
          const paid = await call(a.url, x.token, "payAcross", {
            from: x.wallet,
            server: b.url,
            walletId: x.remotePayee,
            amount: "0.05",
            payerAmount: "0.04",
            key: key(),
          });
          if (paid.state !== "committed") throw new Error(`payment ${paid.state}`);
        }),
      );
      cells.push(
        await measure(THROUGH, n, async (i) => {
          const x = clients[i]!;
          const paid = await call(a.url, x.token, "payAcross", {
            from: x.wallet,
            server: c.url,
            walletId: x.farPayee,
            amount: "0.05",
            payerAmount: farPayerAmount,
            key: key(),
          });
          if (paid.state !== "committed") throw new Error(`payment ${paid.state}`);
        }),
      );
    }
    console.log(`\nPayments across a link and through B, three local servers on one embedded PostgreSQL (three databases), ${seconds} s per cell:\n`);
    print(cells.filter((c) => !Number.isNaN(c.perSecond)));
    await profile?.stop(cells.reduce((t, c) => t + (Number.isNaN(c.perSecond) ? 0 : c.count), 0));
    console.log("");
    for (const [x, y, names] of [
      [a, b, "A's clearing balance with B"],
      [b, a, "B's clearing balance with A"],
      [b, c, "B's clearing balance with C"],
      [c, b, "C's clearing balance with B"],
    ] as const) {
      const { clearing, held } = await clearingAndHeld(x, y);
      console.log(`${names} ${clearing} cents, the other's record of it ${held} cents: ${held === clearing ? "equal" : "DIFFERENT"}`);
    }
  } finally {
    for (const s of started) await s.close();
    await pgs.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
