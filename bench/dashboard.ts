/**
 * Dashboard load for a member with a long history: sign-in, the accounts, the last 5 transactions,
 * through the HTTP API, next to a member with a short history, so paging and indexes show whether
 * the cost stays flat as history grows.
 *
 *   npm run bench:dashboard -- [transactions = 100000] [rounds = 20]
 *
 * Runs on an embedded PostgreSQL in a temp dir. The long history is written in one SQL statement
 * (movements and their balanced postings), then the cached balances are set to match.
 */
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { buildPath } from "@mutua/domain";
import { buildApp } from "../apps/server/src/app";
import { startEmbeddedPostgres } from "../apps/server/src/db/embedded";
import { migrate } from "../apps/server/src/db/migrate";
import { createPool, type Db } from "../apps/server/src/db/pool";
import { readSettings } from "../apps/server/src/settings";
import { postMovement } from "../apps/server/src/services/ledger/ledger";
import { createMember } from "../apps/server/src/services/members/members";
import { hashPassword } from "../apps/server/src/services/members/passwords";
import { ensureSystemWallets, getBackend, openCustodialWallet, systemWallet, type BackendRow } from "../apps/server/src/services/wallets/wallets";

const history = Number(process.argv[2] ?? 100_000);
const rounds = Number(process.argv[3] ?? 20);
if (!Number.isInteger(history) || history < 1 || !Number.isInteger(rounds) || rounds < 1) {
  console.error("usage: npm run bench:dashboard -- [transactions >= 1] [rounds >= 1]");
  process.exit(2);
}
const PASSWORD = "Bench1234!";
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

async function member(db: Db, backend: BackendRow, tag: string, passwordHash: string) {
  const id = await createMember(db, { email: `${tag}@bench.invalid`, firstName: "Bench", lastName: tag, passwordHash });
  return { email: `${tag}@bench.invalid`, wallet: await openCustodialWallet(db, backend, id, "active") };
}

/** `count` payments of 0.01 from `payer` to `payee`, one every 5 minutes up to now, written in bulk. */
async function bulkHistory(db: Db, backend: BackendRow, payer: string, payee: string, count: number) {
  const accounts = async (wallet: string) =>
    (await db.query<{ id: bigint; balance: bigint }>("SELECT id, balance FROM accounts WHERE wallet_id = $1 AND kind = 'main'", [wallet])).rows[0]!;
  const from = await accounts(payer);
  const to = await accounts(payee);
  await db.query(
    `WITH m AS (
       INSERT INTO movements (public_id, backend_id, currency_id, kind, payer_wallet_id, payee_wallet_id, amount, sender_memo, recipient_memo,
                              idempotency_key, request_hash, created_at)
       SELECT 'tx_bench_' || g, $1, $2, 'payment', $3, $4, 1, 'Bench ' || g, 'Bench ' || g, 'bench-bulk-' || g, 'bench',
              now() - make_interval(mins => 5 * ($5 - g))
       FROM generate_series(1, $5) g
       RETURNING id, idempotency_key
     ), n AS (SELECT id, row_number() OVER (ORDER BY id) AS k FROM m)
     INSERT INTO postings (movement_id, account_id, amount, balance_after)
     SELECT id, $6::bigint, -1, $7::bigint - k FROM n
     UNION ALL
     SELECT id, $8::bigint, 1, $9::bigint + k FROM n`,
    [backend.id, backend.currency_id, payer, payee, count, from.id, from.balance, to.id, to.balance],
  );
  await db.query("UPDATE accounts SET balance = balance - $2 WHERE id = $1", [from.id, count]);
  await db.query("UPDATE accounts SET balance = balance + $2 WHERE id = $1", [to.id, count]);
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-bench-"));
  const embedded = await startEmbeddedPostgres(dir, { log: () => {} });
  const db = createPool(embedded.url, 10);
  try {
    await migrate(embedded.url);
    await db.query("INSERT INTO currencies (id, name, symbol) VALUES ('bench', 'Bench', 'BN')");
    await db.query("INSERT INTO backends (id, kind, name, currency_id) VALUES ('custodial:bench', 'custodial', 'bench', 'bench')");
    const backend = (await getBackend(db, "custodial:bench"))!;
    await ensureSystemWallets(db, backend);
    const issuance = (await systemWallet(db, backend.id, "issuance"))!;
    const passwordHash = await hashPassword(PASSWORD);
    const long = await member(db, backend, "long", passwordHash);
    const short = await member(db, backend, "short", passwordHash);
    const counterpart = await member(db, backend, "counterpart", passwordHash);
    await postMovement(db, {
      kind: "topup",
      payerWalletId: issuance.id,
      payeeWalletId: counterpart.wallet,
      parts: [{ account: "main", amount: BigInt(history + 1000) }],
      senderMemo: "",
      recipientMemo: "",
      idempotencyKey: "bench-seed-topup",
      initiatedBy: null,
    });
    const t0 = performance.now();
    await bulkHistory(db, backend, counterpart.wallet, long.wallet, history);
    for (let i = 0; i < 10; i++) {
      await postMovement(db, {
        kind: "payment",
        payerWalletId: counterpart.wallet,
        payeeWalletId: short.wallet,
        parts: [{ account: "main", amount: 1n }],
        senderMemo: "",
        recipientMemo: "",
        idempotencyKey: `bench-short-${i}`,
        initiatedBy: null,
      });
    }
    await db.query("ANALYZE");
    console.log(`history of ${history} transactions written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const settings = readSettings({
      ...process.env,
      HOST: "127.0.0.1",
      PORT: "0",
      RATE_LIMIT_LOGIN_IP_MAX: "1000000",
      RATE_LIMIT_LOGIN_ACCOUNT_MAX: "1000000",
    });
    const app = await buildApp({ db, settings, mailer: { send: async () => {} } });
    await app.listen({ host: "127.0.0.1", port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    try {
      const call = async (p: string, init: RequestInit = {}) => {
        const res = await fetch(base + p, init);
        const body = await res.text();
        if (res.status !== 200) throw new Error(`${p}: HTTP ${res.status} ${body}`);
        return JSON.parse(body);
      };
      const rows: string[] = [];
      for (const [label, who] of [
        ["10 transactions", short],
        [`${history} transactions`, long],
      ] as const) {
        const times = { login: [] as number[], accounts: [] as number[], last5: [] as number[], total: [] as number[] };
        for (let r = 0; r < rounds; r++) {
          const a = performance.now();
          const { token } = await call(buildPath("login"), {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ login: who.email, password: PASSWORD }),
          });
          const b = performance.now();
          const auth = { headers: { authorization: `Bearer ${token}` } };
          await call(buildPath("getAccounts"), auth);
          const c = performance.now();
          const page = await call(`${buildPath("getTransactions", { walletId: who.wallet })}?limit=5`, auth);
          const d = performance.now();
          if (page.items.length !== 5) throw new Error("expected 5 transactions");
          times.login.push(b - a);
          times.accounts.push(c - b);
          times.last5.push(d - c);
          times.total.push(d - a);
        }
        const f = (xs: number[]) => {
          const s = [...xs].sort((x, y) => x - y);
          return `${percentile(s, 50).toFixed(1)} / ${percentile(s, 99).toFixed(1)}`;
        };
        rows.push(`| ${label} | ${f(times.login)} | ${f(times.accounts)} | ${f(times.last5)} | ${f(times.total)} |`);
      }
      console.log(`\nDashboard load, ${rounds} rounds each, p50 / p99 in ms (embedded PostgreSQL, ${os.cpus().length} CPUs)`);
      console.log("| member | sign-in | accounts | last 5 transactions | total |");
      console.log("|---|---:|---:|---:|---:|");
      for (const r of rows) console.log(r);
    } finally {
      await app.close();
    }
  } finally {
    await db.end();
    await embedded.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exit(1);
});
