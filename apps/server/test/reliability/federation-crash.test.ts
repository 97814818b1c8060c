import { afterAll, describe, expect, it } from "vitest";
import { convertCents, formatCents, parseApiAmount } from "@mutua/domain";
import { migrate } from "../../src/db/migrate";
import { createPool, type Db } from "../../src/db/pool";
import { ledgerViolations } from "../../src/services/ledger/ledger";
import { openCustodialWallet } from "../../src/services/wallets/wallets";
import { Api, createBackend, memberToken, seedMember, topUp, walletBalances } from "../helpers";
import { CrashablePostgres, ServerProcess, waitFor } from "./processes";
import { pause, seeded } from "./workload";

/**
 * Payments across a link while anything dies without warning: A's server, B's server, A's
 * database or B's (kill -9, then started again), at seeded random moments of 200 payments from ten
 * payers of A to two shops of B. Each payer's app retries what it did not hear the end of, with the
 * same key, as the app does, until it is told paid, refused, or pending (then the servers end it
 * between themselves, as the app leaves it). Afterwards: every payment acknowledged is on both sides exactly once,
 * every refused one on neither, none is left in doubt a minute after both sides are up, and each
 * side's clearing balance is what the other records of it.
 *
 * Two embedded PostgreSQL of the test's own (the suite's shared one cannot be killed), so it runs
 * in the embedded pass only.
 */
const seed = Number(process.env.LOAD_SEED ?? Math.floor(Math.random() * 2 ** 31));
const KILLS = Number(process.env.FEDERATION_KILLS ?? 8);
const PAYERS = 10;
const PAYMENTS_EACH = 20;
const cleanups: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

interface Side {
  pg: CrashablePostgres;
  server: ServerProcess;
  /** A pool of the test's, for setting up and checking (not the server's). */
  db: () => Db;
}

async function startSide(name: string, symbol: string): Promise<Side> {
  const pg = await CrashablePostgres.start();
  cleanups.push(() => pg.stop());
  await migrate(pg.url);
  const setup = createPool(pg.url, 3);
  // Set up as `npm run setup` leaves it: the association and its currency.
  await setup.query("INSERT INTO currencies (id, name, symbol) VALUES ('association', $1, $1)", [symbol]);
  await setup.query("INSERT INTO association (name, currency_id) VALUES ($1, 'association')", [name]);
  await setup.end();
  // The two servers reach each other on the loopback, over plain HTTP: the operator's setting allows it.
  const server = await ServerProcess.start(pg.url, (url) => ({ PUBLIC_URL: url, FEDERATION_ALLOW_LOOPBACK_HTTP: "true" }));
  cleanups.push(() => server.stop());
  // A fresh pool each time it is asked for: one made before a crash of the database holds dead connections.
  return { pg, server, db: () => createPool(pg.url, 3) };
}

async function withDb<T>(side: Side, run: (db: Db) => Promise<T>): Promise<T> {
  const db = side.db();
  try {
    return await run(db);
  } finally {
    await db.end();
  }
}

/** What a payer's app saw of one payment in the end. */
interface Outcome {
  key: string;
  amount: string;
  payerAmount: string;
  shop: string;
  payer: string;
  /**
   * committed: acknowledged; refused: a 4xx; pending: the app was told the other side had not
   * confirmed yet, and leaves it to the servers (the recovery must end it). The payment id when known.
   */
  end: "committed" | "refused" | "pending";
  id?: string;
  attempts: number;
}

describe(`payments across, kill -9 of either server or database (${KILLS} times, LOAD_SEED=${seed})`, () => {
  it.skipIf(process.env.TEST_PG_URL !== undefined)(
    "every acknowledged payment is on both sides once, every refused one on neither, none in doubt",
    async () => {
      const [a, b] = await Promise.all([startSide("Association A", "AAA"), startSide("Association B", "BBB")]);

      // The owners link the two associations; B holds up to 100,000 AAA of A's.
      const owners = await Promise.all(
        [a, b].map((s) =>
          withDb(
            s,
            async (db) => new Api(s.server.baseUrl, await memberToken(db, (await seedMember(db, { firstName: "Owner", canManageAssociation: true })).id)),
          ),
        ),
      );
      const [ownerA, ownerB] = owners as [Api, Api];
      const { code } = (await ownerA.call("createFederationInvitation")).json;
      const termsB = { ourValue: "0.8", theirValue: "1", trustLimit: "100000.00", enabled: true };
      expect((await ownerB.call("acceptFederationInvitation", { body: { code, terms: termsB } })).status).toBe(200);
      const [link] = (await ownerA.call("listFederationLinks")).json.links;
      const termsA = { ourValue: "1", theirValue: "0.8", trustLimit: "100000.00", enabled: true };
      expect((await ownerA.call("confirmFederationLink", { params: { linkId: link!.id }, body: { terms: termsA } })).status).toBe(200);

      const shops = await withDb(b, async (db) => {
        const backend = await createBackend(db, { kind: "custodial", symbol: "BBB" });
        return Promise.all([0, 1].map(async (i) => openCustodialWallet(db, backend, (await seedMember(db, { firstName: `Shop${i}` })).id)));
      });
      const payers = await withDb(a, async (db) => {
        const backend = await createBackend(db, { kind: "custodial", symbol: "AAA" });
        return Promise.all(
          Array.from({ length: PAYERS }, async (_, i) => {
            const m = await seedMember(db, { firstName: `Payer${i}` });
            const wallet = await openCustodialWallet(db, backend, m.id);
            await topUp(db, wallet, "500.00");
            return { wallet, api: new Api(a.server.baseUrl, await memberToken(db, m.id)) };
          }),
        );
      });

      const rng = seeded(seed);
      let keySeq = 0;
      const outcomes: Outcome[] = [];
      let running = true;

      /** One payment, retried with its key until its end is known (a 200 committed, or a refusal). */
      async function payOnce(payer: (typeof payers)[number], shop: string, amountCents: bigint): Promise<Outcome> {
        const amount = formatCents(amountCents);
        const payerAmount = formatCents(convertCents(amountCents, 8000n, 10000n));
        const key = `fed-crash-${seed}-${++keySeq}`;
        const body = { from: payer.wallet, server: b.server.baseUrl, walletId: shop, amount, payerAmount, key };
        for (let attempts = 1; ; attempts++) {
          const r = await payer.api.call("payAcross", { body }).catch(() => undefined);
          const base = { key, amount, payerAmount, shop, payer: payer.wallet, attempts };
          if (r && r.status === 200) return { ...base, end: r.json.state, id: r.json.id };
          if (r && r.status >= 400 && r.status < 500 && r.status !== 429) return { ...base, end: "refused" };
          // Cut, or 5xx: the app asks again a little later.
          await pause(100 + Math.floor(rng() * 200));
        }
      }

      const load = Promise.all(
        payers.map(async (payer, i) => {
          const local = seeded(seed + i + 1);
          for (let n = 0; n < PAYMENTS_EACH; n++) {
            const shop = shops[Math.floor(local() * shops.length)]!;
            outcomes.push(await payOnce(payer, shop, BigInt(100 + Math.floor(local() * 400))));
            await pause(Math.floor(local() * 400));
          }
        }),
      ).finally(() => (running = false));

      const victims = [
        { what: "A's server", kill: () => a.server.kill9().then(() => a.server.restart()) },
        { what: "B's server", kill: () => b.server.kill9().then(() => b.server.restart()) },
        { what: "A's database", kill: () => a.pg.crashAndRestart() },
        { what: "B's database", kill: () => b.pg.crashAndRestart() },
      ];
      const killed: string[] = [];
      await pause(500); // the payments get going before the first kill
      for (let k = 0; k < KILLS && running; k++) {
        const victim = victims[Math.floor(rng() * victims.length)]!;
        await victim.kill();
        killed.push(victim.what);
        await pause(300 + Math.floor(rng() * 1200)); // the next kill lands at a seeded random moment
      }
      await load;
      const upAt = Date.now();

      // Both up: nothing stays in doubt on A (B never is) longer than a minute.
      const settled = await waitFor(
        () => withDb(a, async (db) => (await db.query("SELECT 1 FROM federation_payments WHERE state = 'prepared'")).rowCount === 0),
        60_000,
        500,
      );
      console.log(
        `federation kill -9: ${killed.length} kills (${killed.join(", ")}), ${outcomes.length} payments, ` +
          `${outcomes.filter((o) => o.attempts > 1).length} asked again, ${outcomes.filter((o) => o.end === "refused").length} refused, ` +
          `${outcomes.filter((o) => o.end === "pending").length} left pending, ` +
          `settled ${Math.round((Date.now() - upAt) / 1000)} s after both were up (LOAD_SEED=${seed})`,
      );
      expect(settled).toBe(true);
      expect(outcomes).toHaveLength(PAYERS * PAYMENTS_EACH);
      expect(killed.length).toBeGreaterThan(0);

      const outA = await withDb(a, async (db) => {
        expect(await ledgerViolations(db)).toEqual([]);
        const rows = (
          await db.query<{ public_id: string; idempotency_key: string; state: string; amount_cents: bigint; peer_amount_cents: bigint }>(
            "SELECT public_id, idempotency_key, state, amount_cents, peer_amount_cents FROM federation_payments WHERE direction = 'out'",
          )
        ).rows;
        const balances = await Promise.all(payers.map(async (p) => (await walletBalances(db, p.wallet)).main));
        const clearing = BigInt(
          (
            await db.query<{ t: string }>(
              "SELECT coalesce(sum(a.balance), 0)::text AS t FROM accounts a JOIN wallets w ON w.id = a.wallet_id WHERE w.role = 'clearing'",
            )
          ).rows[0]!.t,
        );
        const held = (await db.query<{ held_cents: bigint }>("SELECT held_cents FROM federation_links")).rows[0]!.held_cents;
        return { rows, balances, clearing, held };
      });
      const inB = await withDb(b, async (db) => {
        expect(await ledgerViolations(db)).toEqual([]);
        const rows = (
          await db.query<{ public_id: string; state: string; amount_cents: bigint | null }>(
            "SELECT public_id, state, amount_cents FROM federation_payments WHERE direction = 'in'",
          )
        ).rows;
        const credits = (
          await db.query<{ key: string; n: number }>(
            "SELECT idempotency_key AS key, count(*)::int AS n FROM movements m JOIN wallets w ON w.id = m.payer_wallet_id WHERE w.role = 'clearing' GROUP BY 1",
          )
        ).rows;
        const shopsHold = await Promise.all(shops.map(async (s) => (await walletBalances(db, s)).main));
        const clearing = BigInt(
          (
            await db.query<{ t: string }>(
              "SELECT coalesce(sum(a.balance), 0)::text AS t FROM accounts a JOIN wallets w ON w.id = a.wallet_id WHERE w.role = 'clearing'",
            )
          ).rows[0]!.t,
        );
        const held = (await db.query<{ held_cents: bigint }>("SELECT held_cents FROM federation_links")).rows[0]!.held_cents;
        return { rows, credits, shopsHold, clearing, held };
      });

      const byKey = new Map(outA.rows.map((r) => [r.idempotency_key, r]));
      const committedAtB = new Map(inB.rows.filter((r) => r.state === "committed").map((r) => [r.public_id, r]));
      const problems: string[] = [];
      for (const o of outcomes) {
        const row = byKey.get(o.key);
        if (o.end === "committed") {
          if (row?.state !== "committed") problems.push(`${o.key}: acknowledged, but ${row?.state ?? "unknown"} on A`);
          if (!committedAtB.has(o.id!)) problems.push(`${o.key}: acknowledged, but not made on B`);
        } else if (o.end === "refused") {
          if (row && (row.state === "committed" || committedAtB.has(row.public_id))) problems.push(`${o.key}: refused to the payer, but made`);
        } else if (row?.state === "committed" ? !committedAtB.has(o.id!) : committedAtB.has(o.id!)) {
          problems.push(`${o.key}: pending, then ${row?.state} on A and ${committedAtB.has(o.id!) ? "made" : "not made"} on B`);
        }
      }
      // Exactly once on B, and B made nothing A does not know as committed.
      for (const c of inB.credits) if (c.n !== 1) problems.push(`${c.key}: made ${c.n} times on B`);
      for (const id of committedAtB.keys())
        if (!outA.rows.some((r) => r.public_id === id && r.state === "committed")) problems.push(`${id}: made on B, not on A`);
      expect(problems).toEqual([]);

      // The money: what each payer paid and each shop was paid is what the acknowledged payments say.
      const committed = outcomes.filter((o) => o.end === "committed" || (o.end === "pending" && byKey.get(o.key)?.state === "committed"));
      const paid = (wallet: string) => committed.filter((o) => o.payer === wallet).reduce((s, o) => s + parseApiAmount(o.payerAmount)!, 0n);
      expect(outA.balances).toEqual(payers.map((p) => formatCents(50_000n - paid(p.wallet))));
      const earned = (shop: string) => committed.filter((o) => o.shop === shop).reduce((s, o) => s + parseApiAmount(o.amount)!, 0n);
      expect(inB.shopsHold).toEqual(shops.map((s) => formatCents(earned(s))));
      // Each side's clearing balance is the other's record of it.
      expect(outA.clearing).toBe(inB.held);
      expect(inB.clearing).toBe(outA.held);
      expect([a.server, b.server].flatMap((s) => s.unexpectedExits)).toEqual([]);
    },
    600_000,
  );
});
