import { afterAll, describe, expect, it } from "vitest";
import { convertCents, formatCents, parseApiAmount } from "@mutua/domain";
import type { Db } from "../../src/db/pool";
import { ledgerViolations } from "../../src/services/ledger/ledger";
import { walletBalances } from "../helpers";
import { clearingWith, heldOf, killAtRandom, linkSides, membersOf, payUntilKnown, startSide, withDb, type Cleanups, type Outcome } from "./federated-sides";
import { waitFor } from "./processes";
import { pause, seeded } from "./workload";

/**
 * Payments through an association both trust while anything dies without warning: A, B and C's
 * servers and databases (kill -9, then started again), at seeded random moments of 200 payments
 * from ten payers of A to two shops of C, through B (linked with both; A and C are not linked).
 * Each payer's app retries what it did not hear the end of, with the same key, until it is told
 * paid, refused, or pending (then the servers end it between themselves). Afterwards: every
 * payment acknowledged is made exactly once at every hop (A's hold committed, B's two rows
 * committed, C's member credited once), every refused one at none, none is left in doubt or held
 * anywhere a minute after all are up, and on each link each side's clearing balance is what the
 * other records of it.
 *
 * Three embedded PostgreSQL of the test's own (the suite's shared one cannot be killed), so it
 * runs in the embedded pass only.
 */
const seed = Number(process.env.LOAD_SEED ?? Math.floor(Math.random() * 2 ** 31));
const KILLS = Number(process.env.FEDERATION_KILLS ?? 8);
const PAYERS = 10;
const PAYMENTS_EACH = 20;
const cleanups: Cleanups = [];

afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

/** One BBB is 0.8 AAA, one CCC 0.8 BBB (federated-sides.ts's terms): each hop's amount rounded once, from the payee back. */
const hop = (cents: bigint) => convertCents(cents, 8000n, 10000n);

/** The payments of one direction on `db`'s side, by payment id. */
async function paymentsOf(db: Db, direction: "in" | "out", peerUrl: string) {
  const { rows } = await db.query<{ id: string; public_id: string; idempotency_key: string | null; state: string; forward_of: string | null }>(
    `SELECT p.id, p.public_id, p.idempotency_key, p.state, p.forward_of FROM federation_payments p JOIN federation_links l ON l.id = p.link_id
      WHERE p.direction = $1 AND l.peer_url = $2`,
    [direction, peerUrl],
  );
  return rows;
}

/** The movements out of `db`'s side's clearing wallets (payments in credited, holds forwarded), by idempotency key: how many of each. */
async function clearingMovements(db: Db): Promise<Map<string, number>> {
  const { rows } = await db.query<{ key: string; n: number }>(
    "SELECT m.idempotency_key AS key, count(*)::int AS n FROM movements m JOIN wallets w ON w.id = m.payer_wallet_id WHERE w.role = 'clearing' GROUP BY 1",
  );
  return new Map(rows.map((r) => [r.key, r.n]));
}

const committedIds = (rows: { public_id: string; state: string }[]) => new Set(rows.filter((r) => r.state === "committed").map((r) => r.public_id));

describe(`payments through an association both trust, kill -9 of any server or database (${KILLS} times, LOAD_SEED=${seed})`, () => {
  it.skipIf(process.env.TEST_PG_URL !== undefined)(
    "every acknowledged payment is made once at every hop, every refused one at none, none in doubt or held",
    async () => {
      const startedAt = Date.now();
      const [a, b, c] = await Promise.all([startSide("A", "AAA", cleanups), startSide("B", "BBB", cleanups), startSide("C", "CCC", cleanups)]);
      const [urlA, urlB, urlC] = [a, b, c].map((s) => s.server.baseUrl) as [string, string, string];
      await linkSides(a, b);
      await linkSides(b, c);
      // B's owners forward A's payments to B's other links; A learns that it reaches C through B.
      const withA = (await b.owner.call("listFederationLinks")).json.links.find((l) => l.peerUrl === urlA)!;
      expect((await b.owner.call("setFederationLinkForwarding", { params: { linkId: withA.id }, body: { forward: true } })).status).toBe(200);
      const learnt = await waitFor(
        () => withDb(a, async (db) => (await db.query("SELECT 1 FROM federation_routes WHERE url = $1", [urlC])).rowCount === 1),
        30_000,
        100,
      );
      expect(learnt).toBe(true);
      const shops = (await membersOf(c, ["Shop0", "Shop1"])).map((s) => s.wallet);
      const payers = await membersOf(
        a,
        Array.from({ length: PAYERS }, (_, i) => `Payer${i}`),
        "500.00",
      );
      // The app's quote says what the payers below pay: 10.00 CCC are 8.00 BBB, 6.40 AAA.
      const quote = await payers[0]!.api.call("quoteCrossPayment", { body: { server: urlC, walletId: shops[0]!, amount: "10.00" } });
      expect(quote.json).toMatchObject({ payerAmount: formatCents(hop(hop(1000n))), via: { amount: formatCents(hop(1000n)) } });

      const loadAt = Date.now();
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
              server: urlC,
              walletId: shop,
              amount: formatCents(amountCents),
              payerAmount: formatCents(hop(hop(amountCents))),
              key: `fed-through-crash-${seed}-${++keySeq}`,
            };
            outcomes.push(await payUntilKnown(payer.api, body, rng));
            await pause(Math.floor(local() * 400));
          }
        }),
      ).finally(() => (running = false));
      const killed = await killAtRandom([a, b, c], KILLS, rng, () => running);
      await load;
      const upAt = Date.now();

      // All up: nothing stays in doubt on A or B, nor held on B, longer than a minute.
      const settled = await waitFor(
        async () => {
          for (const s of [a, b, c]) {
            const open = await withDb(s, (db) => db.query("SELECT 1 FROM federation_payments WHERE state IN ('prepared', 'held')"));
            if (open.rowCount !== 0) return false;
          }
          return true;
        },
        60_000,
        500,
      );
      const refused = outcomes.filter((o) => o.end === "refused");
      console.log(
        `federation through kill -9: ${killed.length} kills (${killed.join(", ")}), ${outcomes.length} payments, ` +
          `${outcomes.filter((o) => o.attempts > 1).length} asked again, ${refused.length} refused (${[...new Set(refused.map((o) => o.refusal))].join(", ")}), ` +
          `${outcomes.filter((o) => o.end === "pending").length} left pending, ` +
          `set up in ${Math.round((loadAt - startedAt) / 1000)} s, paid in ${Math.round((upAt - loadAt) / 1000)} s, ` +
          `settled ${Math.round((Date.now() - upAt) / 1000)} s after all were up (LOAD_SEED=${seed})`,
      );
      expect(settled).toBe(true);
      expect(outcomes).toHaveLength(PAYERS * PAYMENTS_EACH);
      expect(killed.length).toBeGreaterThan(0);

      const atA = await withDb(a, async (db) => ({
        violations: await ledgerViolations(db),
        out: await paymentsOf(db, "out", urlB),
        balances: await Promise.all(payers.map(async (p) => (await walletBalances(db, p.wallet)).main)),
        clearing: await clearingWith(db, urlB),
        held: await heldOf(db, urlB),
      }));
      const atB = await withDb(b, async (db) => ({
        violations: await ledgerViolations(db),
        in: await paymentsOf(db, "in", urlA),
        out: await paymentsOf(db, "out", urlC),
        holds: await clearingMovements(db),
        clearing: { a: await clearingWith(db, urlA), c: await clearingWith(db, urlC) },
        held: { a: await heldOf(db, urlA), c: await heldOf(db, urlC) },
      }));
      const atC = await withDb(c, async (db) => ({
        violations: await ledgerViolations(db),
        in: await paymentsOf(db, "in", urlB),
        credits: await clearingMovements(db),
        shopsHold: await Promise.all(shops.map(async (s) => (await walletBalances(db, s)).main)),
        clearing: await clearingWith(db, urlB),
        held: await heldOf(db, urlB),
      }));
      expect([atA.violations, atB.violations, atC.violations]).toEqual([[], [], []]);

      const problems: string[] = [];
      // Made at one hop, made at every hop: the same payments committed on A, on both of B's rows, and on C.
      const made = { a: committedIds(atA.out), bIn: committedIds(atB.in), bOut: committedIds(atB.out), c: committedIds(atC.in) };
      for (const id of new Set(Object.values(made).flatMap((s) => [...s]))) {
        const where = Object.entries(made).flatMap(([hop, ids]) => (ids.has(id) ? [hop] : []));
        if (where.length !== 4) problems.push(`${id}: made on ${where.join(", ")} only`);
      }
      // B's row on to C is the one of the payment it holds for A.
      const inById = new Map(atB.in.map((r) => [r.id, r.public_id]));
      for (const r of atB.out) if (inById.get(r.forward_of!) !== r.public_id) problems.push(`${r.public_id}: forwarded for another payment at B`);
      // Once each: B's hold posted once, C's member credited once.
      for (const id of made.bOut) if (atB.holds.get(id) !== 1) problems.push(`${id}: held ${atB.holds.get(id) ?? 0} times at B`);
      for (const [id, n] of atC.credits)
        if (n !== 1 || !made.c.has(id)) problems.push(`${id}: credited ${n} times at C, ${made.c.has(id) ? "" : "not "}committed`);

      const byKey = new Map(atA.out.map((r) => [r.idempotency_key, r]));
      for (const o of outcomes) {
        const row = byKey.get(o.key);
        if (o.end === "committed") {
          if (row?.state !== "committed" || row.public_id !== o.id) problems.push(`${o.key}: acknowledged, but ${row?.state ?? "unknown"} on A`);
          else if (!made.c.has(o.id)) problems.push(`${o.key}: acknowledged, but not made on C`);
        } else if (o.end === "refused") {
          if (row && made.c.has(row.public_id)) problems.push(`${o.key}: refused to the payer, but made`);
        } else if (row?.state !== "committed" && row?.state !== "aborted") {
          problems.push(`${o.key}: pending, then ${row?.state ?? "unknown"} on A`);
        }
      }
      expect(problems).toEqual([]);

      // The money: what each payer paid and each shop was paid is what the payments made say.
      const committed = outcomes.filter((o) => o.end === "committed" || (o.end === "pending" && byKey.get(o.key)?.state === "committed"));
      const paid = (wallet: string) => committed.filter((o) => o.payer === wallet).reduce((s, o) => s + parseApiAmount(o.payerAmount)!, 0n);
      expect(atA.balances).toEqual(payers.map((p) => formatCents(50_000n - paid(p.wallet))));
      const earned = (shop: string) => committed.filter((o) => o.shop === shop).reduce((s, o) => s + parseApiAmount(o.amount)!, 0n);
      expect(atC.shopsHold).toEqual(shops.map((s) => formatCents(earned(s))));
      // On each link, each side's clearing balance is the other's record of it.
      expect([atA.clearing, atB.clearing.a, atB.clearing.c, atC.clearing]).toEqual([atB.held.a, atA.held, atC.held, atB.held.c]);
      expect([a, b, c].flatMap((s) => s.server.unexpectedExits)).toEqual([]);
    },
    600_000,
  );
});
