import { beforeAll, describe, expect, it } from "vitest";
import { SM } from "@mutua/domain";
import type { Db } from "../src/db/pool";
import { ledgerViolations } from "../src/services/ledger/ledger";
import { paymentStateForPeer } from "../src/services/federation/payments-in";
import { paymentFromPeer } from "../src/services/federation/payments-in-together";
import type { Signer } from "../src/services/federation/signed-messages";
import { Refusal } from "../src/services/platform/errors";
import { openCustodialWallet, type BackendRow } from "../src/services/wallets/wallets";
import { paymentsFromA, paymentsInSides, sidesOfThisFile, type Side } from "./federation-sides";
import { seedMember, walletBalances } from "./helpers";

/**
 * Payments in made by one statement (no transaction of their own): what they are checked with read
 * first without a lock, then one statement that makes them only if the link is still as read.
 * What changed meanwhile sends the batch the transaction's way, which decides it under the lock.
 */
const sides = sidesOfThisFile();
const paymentTo = paymentsFromA("in-one");
let b: Side;
let fromA: Signer;
let bobWallet: string;

beforeAll(async () => {
  let backendB: BackendRow;
  ({ b, fromA, backendB } = await paymentsInSides(sides));
  bobWallet = await openCustodialWallet(b.db, backendB, (await seedMember(b.db, { firstName: "Bob", lastName: "Test" })).id, "active");
  // The clearing wallet and the secret made by a first payment, as on any link that was ever paid across.
  await paymentFromPeer(b.db, fromA, payment("0.10"));
});

/** A's payment of `amount` of B's currency to Bob. */
const payment = (amount: string) => paymentTo(bobWallet, amount);

const told = (o: unknown) => (o instanceof Refusal ? o.msg.id : (o as { state: string }).state);
const heldAtB = async () => BigInt((await b.db.query<{ held_cents: string }>("SELECT held_cents FROM federation_links")).rows[0]!.held_cents);

/** B's pool, each statement and transaction it is asked for counted (a pool of its own to the batching, which keeps one batcher per pool). */
function counted(db: Db): { db: Db; statements: string[]; transactions: () => number } {
  const statements: string[] = [];
  let transactions = 0;
  const proxy = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === "query")
        return (q: string | { name?: string; text: string }, ...rest: unknown[]) => {
          statements.push(typeof q === "string" ? q : (q.name ?? q.text));
          return (target.query as (...args: unknown[]) => unknown).call(target, q, ...rest);
        };
      if (prop === "connect")
        return () => {
          transactions++;
          return target.connect();
        };
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: proxy, statements, transactions: () => transactions };
}

/**
 * A payment sent while the test holds the link's row locked at B: it reads what it is checked
 * with, then waits on the lock; `meanwhile` runs in the locking transaction, which then commits.
 */
async function whileLocked(p: ReturnType<typeof payment>, meanwhile: (q: (text: string, values?: unknown[]) => Promise<unknown>) => Promise<void>) {
  const locker = await b.db.connect();
  try {
    await locker.query("BEGIN");
    await locker.query("SELECT 1 FROM federation_links WHERE state = 'active' FOR UPDATE");
    const sent = paymentFromPeer(b.db, fromA, p).catch((e: unknown) => e);
    for (let waiting = 0; waiting < 1;) {
      const { rows } = await b.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      waiting = rows[0]!.n;
    }
    await meanwhile((text, values) => locker.query(text, values));
    await locker.query("COMMIT");
    return await sent;
  } catch (e) {
    await locker.query("ROLLBACK");
    throw e;
  } finally {
    locker.release();
  }
}

describe("payments in made by one statement", () => {
  it("reads once and writes once, with no transaction of its own, and makes the payment as alone", async () => {
    const count = counted(b.db);
    const held = await heldAtB();
    const answer = await paymentFromPeer(count.db, fromA, payment("1.25"));
    expect(answer).toEqual({ state: "committed", amount: "1.25", payerAmount: "1.00" });
    expect(count.statements).toEqual(["federation-payments-in-around", "federation-payments-in-one"]);
    expect(count.transactions()).toBe(0);
    expect(await heldAtB()).toBe(held + 100n);
    expect(await ledgerViolations(b.db)).toEqual([]);
  });

  it("a link holding more meanwhile, past the trust limit with the payment: decided under the lock, refused for the limit", async () => {
    const p = payment("2.50"); // 2.00 of A's
    const room = 15000n - (await heldAtB());
    const before = await walletBalances(b.db, bobWallet);
    // Read with room for it; by the time it has the lock, 1.00 of A's is all the room left.
    try {
      const answer = await whileLocked(p, async (q) => void (await q("UPDATE federation_links SET held_cents = held_cents + $1", [room - 100n])));
      expect(told(answer)).toBe(SM.federationTrustLimit);
      expect(await heldAtB()).toBe(15000n - 100n);
      expect(await walletBalances(b.db, bobWallet)).toEqual(before);
      expect((await paymentStateForPeer(b.db, fromA, { paymentId: p.paymentId })).reason).toBe(SM.federationTrustLimit);
    } finally {
      await b.db.query("UPDATE federation_links SET held_cents = held_cents - $1", [room - 100n]);
    }
    expect(await ledgerViolations(b.db)).toEqual([]);
  });

  it("the payment asked about meanwhile (recorded refused): answered from that row, nothing paid", async () => {
    const p = payment("1.25");
    const held = await heldAtB();
    const before = await walletBalances(b.db, bobWallet);
    // What a question about a payment not seen yet records, as the payment waits on the lock.
    const answer = await whileLocked(p, async (q) => {
      await q("INSERT INTO federation_payments (public_id, link_id, direction, state, memo) SELECT $1, id, 'in', 'aborted', '' FROM federation_links", [
        p.paymentId,
      ]);
    });
    expect(answer).toBeInstanceOf(Refusal);
    expect(await heldAtB()).toBe(held);
    expect(await walletBalances(b.db, bobWallet)).toEqual(before);
    expect((await paymentStateForPeer(b.db, fromA, { paymentId: p.paymentId })).state).toBe("aborted");
    expect(await ledgerViolations(b.db)).toEqual([]);
  });
});
