import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { M, type SubAccount } from "@mutua/domain";
import { createPool, type Db } from "../src/db/pool";
import { openCustodialWallet, type BackendRow } from "../src/services/wallets/wallets";
import {
  Api,
  countMovements,
  createBackend,
  memberToken,
  newKey,
  openTestLedgerWallet,
  seedMember,
  signTransfer,
  startServer,
  topUp,
  walletBalances,
  type RawResponse,
  type TestLedgerWallet,
  type TestServer,
} from "./helpers";
import { setupServerTest } from "./setup";

/**
 * Payments racing each other on two server instances (two apps on one database, each with its
 * own pool, as two processes would be): no balance passes its floor, no key pays twice.
 */

const t = setupServerTest({ server: false });
const pools: Db[] = [];
let servers: [TestServer, TestServer];
let custodial: BackendRow;
let ledger: BackendRow;

beforeAll(async () => {
  const a = createPool(t.tdb.url, 10);
  const b = createPool(t.tdb.url, 10);
  pools.push(a, b);
  servers = [await startServer(a), await startServer(b)];
  custodial = await createBackend(t.db, { kind: "custodial" });
  // No mutual credit here: a ledger wallet spends exactly its Nant.
  ledger = await createBackend(t.db, { kind: "ledger" });
});

// Each instance has a pool of its own, not the setup's: closed here, before the setup drops the database.
afterAll(async () => {
  for (const s of servers ?? []) await s?.close();
  for (const p of pools) await p.end();
});

/** One member's session on each instance. */
async function onBoth(memberId: bigint): Promise<[Api, Api]> {
  const token = await memberToken(t.db, memberId);
  return [new Api(servers[0].baseUrl, token), new Api(servers[1].baseUrl, token)];
}

async function custodialMember(balance?: string) {
  const m = await seedMember(t.db);
  const wallet = await openCustodialWallet(t.db, custodial, m.id);
  if (balance) await topUp(t.db, wallet, balance);
  return { wallet, apis: await onBoth(m.id) };
}

async function ledgerMember(nant?: string): Promise<{ wallet: TestLedgerWallet; apis: [Api, Api] }> {
  const m = await seedMember(t.db);
  const wallet = await openTestLedgerWallet(t.db, ledger, m.id);
  if (nant) await topUp(t.db, wallet.id, nant);
  return { wallet, apis: await onBoth(m.id) };
}

/** Sends all bodies at once, alternating instances (so each takes half). */
const race = (apis: [Api, Api], bodies: unknown[]) => Promise.all(bodies.map((body, i) => apis[i % 2]!.call("transfer", { body })));

function tally(rs: RawResponse<{ id: string } & { error: { code: string; message: string } }>[]) {
  const out: Record<string, number> = {};
  for (const r of rs) {
    const k = r.status === 200 ? "200" : `${r.status} ${r.json?.error?.code}`;
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

describe("100 simultaneous payments of 1.00 from a wallet holding 10.00, over two instances", () => {
  it("custodial: exactly 10 go through, 90 are refused for insufficient balance", async () => {
    const payer = await custodialMember("10.00");
    const payee = await custodialMember();
    const bodies = Array.from({ length: 100 }, () => ({ from: payer.wallet, to: payee.wallet, key: newKey(), parts: [{ account: "main", amount: "1.00" }] }));
    const rs = await race(payer.apis, bodies);
    expect(tally(rs)).toEqual({ "200": 10, "409 insufficient_balance": 90 });
    for (const r of rs.filter((x) => x.status === 409)) expect(r.json.error.message).toBe("Transaction was refused due to insufficient balance");
    expect(await walletBalances(t.db, payer.wallet)).toEqual({ main: "0.00" });
    expect(await walletBalances(t.db, payee.wallet)).toEqual({ main: "10.00" });
    expect(await countMovements(t.db, payee.wallet)).toBe(10);
    expect(new Set(rs.filter((r) => r.status === 200).map((r) => r.json.id)).size).toBe(10);
  });

  it("ledger: exactly 10 signed payments go through, 90 are refused for insufficient balance", async () => {
    const payer = await ledgerMember("10.00");
    const payee = await ledgerMember();
    const bodies = Array.from({ length: 100 }, () =>
      signTransfer(payer.wallet.key, { from: payer.wallet.id, to: payee.wallet.id, parts: [{ account: "nant", amount: "1.00" }] }),
    );
    const rs = await race(payer.apis, bodies);
    expect(tally(rs)).toEqual({ "200": 10, "409 insufficient_balance": 90 });
    for (const r of rs.filter((x) => x.status === 409)) expect(r.json.error.message).toBe(M.insufficientBalance);
    expect(await walletBalances(t.db, payer.wallet.id)).toEqual({ nant: "0.00", cm: "0.00" });
    expect(await walletBalances(t.db, payee.wallet.id)).toEqual({ nant: "10.00", cm: "0.00" });
    expect(await countMovements(t.db, payee.wallet.id)).toBe(10);
  });
});

describe("simultaneous payments in both directions", () => {
  it("never deadlock and lose nothing", async () => {
    const a = await custodialMember("25.00");
    const b = await custodialMember("25.00");
    const ab = Array.from({ length: 25 }, () => ({ from: a.wallet, to: b.wallet, key: newKey(), parts: [{ account: "main", amount: "1.00" }] }));
    const ba = Array.from({ length: 25 }, () => ({ from: b.wallet, to: a.wallet, key: newKey(), parts: [{ account: "main", amount: "1.00" }] }));
    const rs = await Promise.all([race(a.apis, ab), race(b.apis, ba)]);
    expect(tally(rs.flat())).toEqual({ "200": 50 });
    expect(await walletBalances(t.db, a.wallet)).toEqual({ main: "25.00" });
    expect(await walletBalances(t.db, b.wallet)).toEqual({ main: "25.00" });
  });
});

describe("simultaneous requests with one idempotency key", () => {
  it("custodial: 10 identical requests make one payment, and all answer it", async () => {
    const payer = await custodialMember("10.00");
    const payee = await custodialMember();
    const body = { from: payer.wallet, to: payee.wallet, key: newKey(), parts: [{ account: "main", amount: "3.00" }] };
    const rs = await race(
      payer.apis,
      Array.from({ length: 10 }, () => body),
    );
    expect(tally(rs)).toEqual({ "200": 10 });
    expect(new Set(rs.map((r) => r.text)).size).toBe(1);
    expect(await countMovements(t.db, payee.wallet)).toBe(1);
    expect(await walletBalances(t.db, payer.wallet)).toEqual({ main: "7.00" });
  });

  it("ledger: 10 copies of one signed request make one payment", async () => {
    const payer = await ledgerMember("10.00");
    const payee = await ledgerMember();
    const body = signTransfer(payer.wallet.key, { from: payer.wallet.id, to: payee.wallet.id, parts: [{ account: "nant", amount: "3.00" }] });
    const rs = await race(
      payer.apis,
      Array.from({ length: 10 }, () => body),
    );
    expect(tally(rs)).toEqual({ "200": 10 });
    expect(new Set(rs.map((r) => r.json.id)).size).toBe(1);
    expect(await countMovements(t.db, payee.wallet.id)).toBe(1);
    expect(await walletBalances(t.db, payer.wallet.id)).toEqual({ nant: "7.00", cm: "0.00" });
  });

  it("custodial: one key for different payees at once makes one payment; the others are conflicts", async () => {
    const payer = await custodialMember("10.00");
    const payees = await Promise.all(Array.from({ length: 5 }, () => custodialMember()));
    const key = newKey();
    const bodies = payees.flatMap((p) => [0, 1].map(() => ({ from: payer.wallet, to: p.wallet, key, parts: [{ account: "main", amount: "1.00" }] })));
    const rs = await race(payer.apis, bodies);
    const tallied = tally(rs);
    // The winner's copy is a replay: 2 answers of 200, 8 conflicts.
    expect(tallied).toEqual({ "200": 2, "409 idempotency_conflict": 8 });
    expect(await countMovements(t.db, payer.wallet)).toBe(2); // top-up and one payment
    expect(await walletBalances(t.db, payer.wallet)).toEqual({ main: "9.00" });
  });

  it("ledger: one key for different sub-accounts at once makes one payment; the others are conflicts, never errors", async () => {
    // Parts on different sub-accounts lock different rows: only the key's uniqueness orders them.
    const payer = await ledgerMember("10.00");
    const payee = await ledgerMember();
    await t.db.query("UPDATE accounts SET floor = -1000 WHERE wallet_id = $1 AND kind = 'cm'", [payer.wallet.id]);
    for (let round = 0; round < 5; round++) {
      const key = newKey();
      const bodies = (["cm", "nant", "cm", "nant"] as SubAccount[]).map((account) =>
        signTransfer(payer.wallet.key, { from: payer.wallet.id, to: payee.wallet.id, key, parts: [{ account, amount: "0.10" }] }),
      );
      const rs = await race(payer.apis, bodies);
      expect(tally(rs), `round ${round}`).toEqual({ "200": 2, "409 idempotency_conflict": 2 });
      const { rows } = await t.db.query("SELECT 1 FROM movements WHERE payer_wallet_id = $1 AND idempotency_key = $2", [payer.wallet.id, key]);
      expect(rows).toHaveLength(1);
    }
    expect(await countMovements(t.db, payee.wallet.id)).toBe(5);
  });
});
