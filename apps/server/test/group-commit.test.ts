import { beforeAll, describe, expect, it } from "vitest";
import { ErrorCode, formatCents } from "@mutua/domain";
import { Refusal } from "../src/services/platform/errors";
import { Batcher, together } from "../src/services/ledger/batching";
import { postMovement, type MovementRequest } from "../src/services/ledger/ledger";
import { openCustodialWallet, type BackendRow } from "../src/services/wallets/wallets";
import { createBackend, newKey, seedMember, topUp, walletBalances } from "./helpers";
import { setupServerTest } from "./setup";

/**
 * Group commit: movements that arrive while the database is busy go together, in one
 * statement and one transaction, and each is answered its own outcome.
 */

/** A promise with its resolve, to hold a fake database call open until the test lets it go. */
function gate() {
  let open!: () => void;
  const p = new Promise<void>((r) => (open = r));
  return { p, open };
}

describe("Batcher, the queue", () => {
  function recorder(opts: { failBatches?: boolean; concurrency?: number } = {}) {
    const calls: string[][] = [];
    const holds: ReturnType<typeof gate>[] = [];
    const g = new Batcher<string, string>({
      one: async (x) => {
        calls.push([x]);
        const h = gate();
        holds.push(h);
        await h.p;
        if (x === "bad") throw new Error("bad item");
        return `${x}!`;
      },
      many: async (xs) => {
        calls.push(xs);
        const h = gate();
        holds.push(h);
        await h.p;
        if (opts.failBatches) throw new Error("batch failed");
        return xs.map((x) => `${x}+`);
      },
      concurrency: opts.concurrency ?? 1,
      maxBatch: 3,
    });
    /** Lets every call made so far return, then the calls they lead to, until none is waiting. */
    const settle = async () => {
      for (let i = 0; i < 20; i++) {
        await new Promise((r) => setImmediate(r));
        holds.splice(0).forEach((h) => h.open());
      }
    };
    return { g, calls, settle };
  }

  it("sends a lone item at once, alone, without waiting for company", async () => {
    const { g, calls, settle } = recorder();
    const a = g.submit("a");
    expect(calls).toEqual([["a"]]);
    await settle();
    expect(await a).toBe("a!");
  });

  it("gathers what arrives while a call is in flight into batches of at most maxBatch, each answered its own", async () => {
    const { g, calls, settle } = recorder();
    const out = ["a", "b", "c", "d", "e", "f"].map((x) => g.submit(x));
    expect(calls).toEqual([["a"]]);
    await settle();
    expect(calls).toEqual([["a"], ["b", "c", "d"], ["e", "f"]]);
    expect(await Promise.all(out)).toEqual(["a!", "b+", "c+", "d+", "e+", "f+"]);
  });

  it("keeps at most `concurrency` calls in flight", async () => {
    const { g, calls, settle } = recorder({ concurrency: 2 });
    const out = ["a", "b", "c", "d"].map((x) => g.submit(x));
    expect(calls).toEqual([["a"], ["b"]]);
    await settle();
    expect(calls.slice(2)).toEqual([["c", "d"]]);
    await Promise.all(out);
  });

  it("gathers what is submitted within `together` into one batch, started once it returns", async () => {
    const { g, calls, settle } = recorder({ concurrency: 2 });
    const out = together(() => ["a", "b", "c"].map((x) => g.submit(x)));
    expect(calls).toEqual([["a", "b", "c"]]);
    await settle();
    expect(await Promise.all(out)).toEqual(["a+", "b+", "c+"]);
    // Outside it, a lone item goes at once, as before.
    const d = g.submit("d");
    expect(calls.slice(1)).toEqual([["d"]]);
    await settle();
    expect(await d).toBe("d!");
  });

  it("posts each item of a failed batch again alone, so one item's error is not its neighbours'", async () => {
    const { g, calls, settle } = recorder({ failBatches: true });
    const out = ["a", "b", "bad", "c"].map((x) => g.submit(x).catch((e: Error) => e.message));
    await settle();
    expect(calls).toEqual([["a"], ["b", "bad", "c"], ["b"], ["bad"], ["c"]]);
    expect(await Promise.all(out)).toEqual(["a!", "b!", "bad item", "c!"]);
  });
});

describe("group commit in the ledger", () => {
  const t = setupServerTest({ server: false });
  let backend: BackendRow;

  beforeAll(async () => {
    backend = await createBackend(t.db, { kind: "custodial" });
  });

  async function wallet(balance?: string, status: "active" | "pending" = "active") {
    const m = await seedMember(t.db);
    const w = await openCustodialWallet(t.db, backend, m.id, status);
    if (balance) await topUp(t.db, w, balance);
    return w;
  }

  const payment = (from: string, to: string, amount: bigint, key = newKey()): MovementRequest => ({
    kind: "payment",
    payerWalletId: from,
    payeeWalletId: to,
    parts: [{ account: "main", amount }],
    senderMemo: "",
    recipientMemo: "",
    idempotencyKey: key,
    initiatedBy: null,
  });

  /**
   * The two batches the pool may have in flight are held on a lock the test takes, so the
   * movements submitted next queue up and go as one batch when the lock is let go.
   */
  async function heldBack(submitQueued: () => Promise<unknown>[]): Promise<{ queued: unknown[]; held: unknown[] }> {
    const locker = await t.db.connect();
    const blockerPayer = await wallet("10.00");
    const shop = await wallet();
    try {
      await locker.query("BEGIN");
      await locker.query("SELECT 1 FROM accounts WHERE wallet_id = $1 FOR UPDATE", [shop]);
      const held = [postMovement(t.db, payment(blockerPayer, shop, 100n)), postMovement(t.db, payment(blockerPayer, shop, 200n))];
      // Both in flight and waiting on the lock: what is submitted now can only queue.
      for (let waiting = 0; waiting < 2;) {
        const { rows } = await t.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        waiting = rows[0]!.n;
      }
      const queued = submitQueued();
      await locker.query("COMMIT");
      return { queued: await Promise.all(queued.map((p) => p.catch((e: unknown) => e))), held: await Promise.all(held) };
    } finally {
      locker.release();
    }
  }

  it("a batch in which some movements are refused commits the others, in one transaction, and answers each its own outcome", async () => {
    const payers = await Promise.all(Array.from({ length: 8 }, () => wallet("5.00")));
    const broke = await wallet("1.00");
    const payee = await wallet();
    const inactive = await wallet(undefined, "pending");
    const repeated = payment(payers[1]!, payee, 50n);
    const { queued } = await heldBack(() => [
      ...payers.map((p, i) => postMovement(t.db, payment(p, payee, BigInt(100 + i)))),
      postMovement(t.db, payment(broke, payee, 500n)),
      postMovement(t.db, payment(payers[0]!, inactive, 100n)),
      postMovement(t.db, repeated),
      postMovement(t.db, repeated),
      postMovement(t.db, { ...repeated, parts: [{ account: "main", amount: 51n }] }),
    ]);

    const posted = queued.slice(0, 8) as { movement: { id: bigint; amount: bigint }; replayed: boolean }[];
    expect(posted.map((r) => [r.movement.amount, r.replayed])).toEqual(payers.map((_, i) => [BigInt(100 + i), false]));
    expect(queued[8]).toBeInstanceOf(Refusal);
    expect((queued[8] as Refusal).code).toBe(ErrorCode.insufficientBalance);
    expect((queued[9] as Refusal).code).toBe(ErrorCode.inactiveAccount);
    // The same key twice in one batch: one movement, the second answers it; another payment under it is a conflict.
    const [first, again] = queued.slice(10, 12) as { movement: { id: bigint }; replayed: boolean }[];
    expect(again!.movement.id).toBe(first!.movement.id);
    expect([first!.replayed, again!.replayed]).toEqual([false, true]);
    expect((queued[12] as Refusal).code).toBe(ErrorCode.idempotencyConflict);

    // They went as one transaction: every movement written by the batch carries its xid.
    const ids = [...posted.map((r) => r.movement.id), first!.movement.id];
    const { rows } = await t.db.query<{ n: number }>("SELECT count(DISTINCT xmin::text)::int AS n FROM movements WHERE id = ANY($1::bigint[])", [ids]);
    expect(rows[0]!.n).toBe(1);
    expect(await walletBalances(t.db, payee)).toEqual({ main: formatSum([...payers.map((_, i) => 100 + i), 50]) });
    expect(await walletBalances(t.db, broke)).toEqual({ main: "1.00" });
    expect(await walletBalances(t.db, inactive)).toEqual({ main: "0.00" });
  });

  it("floors hold inside a batch: a payer's later movements see its earlier ones", async () => {
    const payer = await wallet("3.00");
    const payee = await wallet();
    const { queued } = await heldBack(() => Array.from({ length: 5 }, () => postMovement(t.db, payment(payer, payee, 100n))));
    expect(queued.map((r) => (r instanceof Refusal ? r.code : "posted"))).toEqual([
      "posted",
      "posted",
      "posted",
      ErrorCode.insufficientBalance,
      ErrorCode.insufficientBalance,
    ]);
    expect(await walletBalances(t.db, payer)).toEqual({ main: "0.00" });
  });
});

const formatSum = (centsList: number[]) => formatCents(centsList.reduce((a, b) => a + BigInt(b), 0n));
