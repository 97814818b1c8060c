import { afterAll, describe, expect, it } from "vitest";
import { convertCents, formatCents, parseApiAmount } from "@mutua/domain";
import { ledgerViolations } from "../../src/services/ledger/ledger";
import { walletBalances } from "../helpers";
import { clearingWith, heldOf, killAtRandom, linkSides, membersOf, payUntilKnown, startSide, withDb, type Cleanups, type Outcome } from "./federated-sides";
import { waitFor } from "./processes";
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
const cleanups: Cleanups = [];

afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

describe(`payments across, kill -9 of either server or database (${KILLS} times, LOAD_SEED=${seed})`, () => {
  it.skipIf(process.env.TEST_PG_URL !== undefined)(
    "every acknowledged payment is on both sides once, every refused one on neither, none in doubt",
    async () => {
      const [a, b] = await Promise.all([startSide("A", "AAA", cleanups), startSide("B", "BBB", cleanups)]);
      // The owners link the two associations: one BBB is 0.8 AAA; B holds up to 100,000 AAA of A's.
      await linkSides(a, b);
      const shops = (await membersOf(b, ["Shop0", "Shop1"])).map((s) => s.wallet);
      const payers = await membersOf(
        a,
        Array.from({ length: PAYERS }, (_, i) => `Payer${i}`),
        "500.00",
      );

      const rng = seeded(seed);
      let keySeq = 0;
      const outcomes: Outcome[] = [];
      let running = true;
      const load = Promise.all(
        payers.map(async (payer, i) => {
          const local = seeded(seed + i + 1);
          for (let n = 0; n < PAYMENTS_EACH; n++) {
            const shop = shops[Math.floor(local() * shops.length)]!;
            const amountCents = BigInt(100 + Math.floor(local() * 400));
            const body = {
              from: payer.wallet,
              server: b.server.baseUrl,
              walletId: shop,
              amount: formatCents(amountCents),
              payerAmount: formatCents(convertCents(amountCents, 8000n, 10000n)),
              key: `fed-crash-${seed}-${++keySeq}`,
            };
            outcomes.push(await payUntilKnown(payer.api, body, rng));
            await pause(Math.floor(local() * 400));
          }
        }),
      ).finally(() => (running = false));
      const killed = await killAtRandom([a, b], KILLS, rng, () => running);
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
        return { rows, balances, clearing: await clearingWith(db, b.server.baseUrl), held: await heldOf(db, b.server.baseUrl) };
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
        return { rows, credits, shopsHold, clearing: await clearingWith(db, a.server.baseUrl), held: await heldOf(db, a.server.baseUrl) };
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
