import { describe, expect, it } from "vitest";
import { formatCents } from "@mutua/domain";
import { addressOf, decryptKeystore } from "@mutua/wallet";
import { DEMO_MEMBERS, DEMO_PASSWORD, DEMO_WALLET_PASSWORD, seedDemo } from "../src/demo/seed";
import { DEMO_BUSINESSES } from "../src/demo/businesses";
import { ledgerViolations } from "../src/services/ledger/ledger";
import { Api } from "./helpers";
import { setupServerTest } from "./setup";

/** The demo association: idempotent, consistent, and with the wallets the demo guide promises. */

const t = setupServerTest({ server: false });

const TABLES = ["members", "currencies", "backends", "wallets", "accounts", "movements", "postings", "topup_orders", "reconversions", "businesses"] as const;

async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of TABLES) out[table] = (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;
  return out;
}

async function walletsOf(email: string) {
  const { rows } = await t.db.query<{
    id: string;
    kind: string;
    status: string;
    keystore: Record<string, unknown> | null;
    address: string | null;
    accounts: string[];
  }>(
    `SELECT w.id, b.kind, w.status, w.keystore, w.address, array(SELECT a.kind FROM accounts a WHERE a.wallet_id = w.id ORDER BY a.kind) AS accounts
     FROM wallets w JOIN members m ON m.id = w.member_id JOIN backends b ON b.id = w.backend_id WHERE m.email = $1 ORDER BY b.kind`,
    [email],
  );
  return rows;
}

describe("seedDemo", () => {
  let first: Record<string, number>;

  it("seeds a fresh database with a consistent history", async () => {
    await seedDemo(t.db);
    first = await counts();
    expect(first.members).toBe(DEMO_MEMBERS.length + DEMO_BUSINESSES.length);
    expect(first.businesses).toBe(DEMO_BUSINESSES.length);
    expect(first.movements).toBeGreaterThan(10);
    expect(first.postings).toBeGreaterThanOrEqual(2 * first.movements!);
    expect(await ledgerViolations(t.db)).toEqual([]);
    // The history told its members (the outbox), as read: the demo does not open on months of news.
    const events = await t.db.query<{ n: number; unread: number }>(
      "SELECT count(*)::int AS n, count(*) FILTER (WHERE read_at IS NULL)::int AS unread FROM member_events",
    );
    expect(events.rows[0]!.n).toBeGreaterThan(10);
    expect(events.rows[0]!.unread).toBe(0);
  });

  it("changes nothing when run again", async () => {
    await seedDemo(t.db);
    expect(await counts()).toEqual(first);
    expect(await ledgerViolations(t.db)).toEqual([]);
  });

  it("gives Alice an active custodial wallet and an active ledger wallet with Nant and CM, Bob custodial only, Carol ledger only", async () => {
    const alice = await walletsOf("alice@example.com");
    expect(alice.map((w) => [w.kind, w.status, w.accounts])).toEqual([
      ["custodial", "active", ["main"]],
      ["ledger", "active", ["cm", "nant"]],
    ]);
    expect((await walletsOf("bob@example.com")).map((w) => [w.kind, w.status, w.accounts])).toEqual([["custodial", "active", ["main"]]]);
    expect((await walletsOf("carol@example.com")).map((w) => [w.kind, w.status, w.accounts])).toEqual([["ledger", "active", ["cm", "nant"]]]);
    for (const email of ["admin@example.com", "accounts@example.com", "credits@example.com"]) expect(await walletsOf(email)).toEqual([]);
  });

  it("leaves something on each admin screen: Dan's pending wallet, Alice's paid top-up, the reconversion", async () => {
    expect((await walletsOf("dan@example.com")).map((w) => [w.kind, w.status])).toEqual([["custodial", "pending"]]);
    const { rows } = await t.db.query<{ state: string; amount: bigint; provider: string; email: string }>(
      "SELECT o.state, o.amount, o.provider, m.email FROM topup_orders o JOIN wallets w ON w.id = o.wallet_id JOIN members m ON m.id = w.member_id",
    );
    expect(rows).toEqual([{ state: "paid", amount: 2500n, provider: "demo", email: "alice@example.com" }]);
    const rec = await t.db.query<{ status: string }>("SELECT status FROM reconversions");
    expect(rec.rows).toEqual([{ status: "sent" }]);
  });

  it("encrypts Alice's ledger key with the demo wallet password, for the wallet's own address", async () => {
    const ledger = (await walletsOf("alice@example.com")).find((w) => w.kind === "ledger")!;
    const key = await decryptKeystore(ledger.keystore, DEMO_WALLET_PASSWORD);
    expect(addressOf(key)).toBe(ledger.address);
    expect(ledger.id).toBe(`ledger:${ledger.address}`);
    await expect(decryptKeystore(ledger.keystore, "wrong password")).rejects.toThrow();
    // And every signed demo movement of that wallet was signed by that key.
    const { rows } = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM movements WHERE payer_wallet_id = $1 AND (signature IS NULL OR signed_message IS NULL)",
      [ledger.id],
    );
    expect(rows[0]!.n).toBe(0);
  });

  it("lets Alice sign in and see both wallets with their balances at the API", async () => {
    const server = await t.startServer();
    const login = await new Api(server.baseUrl).call("login", { body: { login: "alice@example.com", password: DEMO_PASSWORD } });
    expect(login.status).toBe(200);
    const accounts = await new Api(server.baseUrl, login.json.token).call("getAccounts");
    expect(accounts.status).toBe(200);
    expect(accounts.json.map((a) => [a.backend, a.active, a.unavailable, a.hasWalletData])).toEqual([
      ["custodial", true, false, false],
      ["ledger", true, false, true],
    ]);
    const { rows } = await t.db.query<{ wallet_id: string; total: string }>("SELECT wallet_id, sum(balance)::text AS total FROM accounts GROUP BY wallet_id");
    for (const a of accounts.json) expect(a.bal, a.id).toBe(formatCents(BigInt(rows.find((r) => r.wallet_id === a.id)!.total)));
  });
});
