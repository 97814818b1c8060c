import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type pg from "pg";
import { ErrorCode, M, formatCents } from "@mutua/domain";
import type { Db } from "../src/db/pool";
import { Refusal } from "../src/services/platform/errors";
import { statusOf } from "../src/http/errors";
import { ledgerViolations, postMovement } from "../src/services/ledger/ledger";
import { openCustodialWallet, systemWallet, type BackendRow } from "../src/services/wallets/wallets";
import { cents, countMovements, createBackend, newKey, seedMember, topUp, walletBalances } from "./helpers";
import { setupServerTest } from "./setup";

/**
 * The ledger's own guarantees, below the API: what the database refuses by itself (unbalanced
 * movements at commit, changes to history, balances past their bounds) and what
 * ledgerViolations reports when something slipped through.
 */

const t = setupServerTest({ server: false });
let backend: BackendRow;
let other: BackendRow;
let alice: string;
let bob: string;
let carolOther: string;

beforeAll(async () => {
  backend = await createBackend(t.db, { kind: "custodial" });
  other = await createBackend(t.db, { kind: "custodial" });
  const a = await seedMember(t.db, { firstName: "Alice" });
  const b = await seedMember(t.db, { firstName: "Bob" });
  const c = await seedMember(t.db, { firstName: "Carol" });
  alice = await openCustodialWallet(t.db, backend, a.id);
  bob = await openCustodialWallet(t.db, backend, b.id);
  carolOther = await openCustodialWallet(t.db, other, c.id);
  await topUp(t.db, alice, "50.00");
});

async function mainAccount(walletId: string): Promise<{ id: bigint; balance: bigint; currency_id: string }> {
  const { rows } = await t.db.query<{ id: bigint; balance: bigint; currency_id: string }>(
    "SELECT id, balance, currency_id FROM accounts WHERE wallet_id = $1 AND kind = 'main'",
    [walletId],
  );
  return rows[0]!;
}

/** A movement row written by hand, as a buggy or malicious writer would. */
async function insertMovementRow(c: pg.PoolClient, payer: string, payee: string, amount: bigint, b: BackendRow = backend): Promise<bigint> {
  const { rows } = await c.query<{ id: bigint }>(
    `INSERT INTO movements (public_id, backend_id, currency_id, kind, payer_wallet_id, payee_wallet_id, amount, idempotency_key, request_hash)
     VALUES ($1, $2, $3, 'payment', $4, $5, $6, $7, 'x') RETURNING id`,
    [`tx_${randomBytes(8).toString("hex")}`, b.id, b.currency_id, payer, payee, amount, newKey()],
  );
  return rows[0]!.id;
}

/** Runs `fn` in a transaction that is always rolled back, so nothing it writes survives the test. */
async function rolledBack<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const c = await t.db.connect();
  try {
    await c.query("BEGIN");
    return await fn(c);
  } finally {
    await c.query("ROLLBACK").catch(() => undefined);
    c.release();
  }
}

/** ledgerViolations only runs queries: it can look inside an open transaction. */
const violationsIn = (c: pg.PoolClient) => ledgerViolations(c as unknown as Db);

describe("the database refuses what would break the ledger", () => {
  it("accepts an unbalanced posting inside a transaction but refuses it at COMMIT", async () => {
    const before = await countMovements(t.db);
    const acc = await mainAccount(bob);
    const c = await t.db.connect();
    try {
      await c.query("BEGIN");
      const id = await insertMovementRow(c, alice, bob, 100n);
      // The balance trigger is deferred: the lone posting (and the cache) go in without complaint...
      await c.query("INSERT INTO postings (movement_id, account_id, amount, balance_after) VALUES ($1, $2, 100, $3)", [id, acc.id, acc.balance + 100n]);
      await c.query("UPDATE accounts SET balance = balance + 100 WHERE id = $1", [acc.id]);
      // ...and the whole transaction is refused when it commits.
      const err = await c.query("COMMIT").catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "23514", message: expect.stringMatching(/^movement \d+ is not balanced$/) });
    } finally {
      await c.query("ROLLBACK").catch(() => undefined);
      c.release();
    }
    expect(await countMovements(t.db)).toBe(before);
    expect((await mainAccount(bob)).balance).toBe(acc.balance);
  });

  it("refuses at COMMIT a movement whose postings do not cancel out, even when both sides are written", async () => {
    const a = await mainAccount(alice);
    const b = await mainAccount(bob);
    const c = await t.db.connect();
    try {
      await c.query("BEGIN");
      const id = await insertMovementRow(c, alice, bob, 100n);
      await c.query("INSERT INTO postings (movement_id, account_id, amount, balance_after) VALUES ($1, $2, -100, $3)", [id, a.id, a.balance - 100n]);
      await c.query("INSERT INTO postings (movement_id, account_id, amount, balance_after) VALUES ($1, $2, 101, $3)", [id, b.id, b.balance + 101n]);
      await expect(c.query("COMMIT")).rejects.toMatchObject({ code: "23514" });
    } finally {
      await c.query("ROLLBACK").catch(() => undefined);
      c.release();
    }
  });

  it("refuses UPDATE and DELETE of movements and postings (history is append-only)", async () => {
    const m = await topUp(t.db, bob, "1.00");
    const refusals = [
      ["UPDATE movements SET sender_memo = 'changed' WHERE id = $1", "movements"],
      ["UPDATE movements SET amount = 1 WHERE id = $1", "movements"],
      ["DELETE FROM movements WHERE id = $1", "movements"],
      ["UPDATE postings SET amount = amount * 2 WHERE movement_id = $1", "postings"],
      ["DELETE FROM postings WHERE movement_id = $1", "postings"],
    ] as const;
    for (const [sql, table] of refusals) {
      await expect(t.db.query(sql, [m.id]), sql).rejects.toMatchObject({ code: "42501", message: `${table} is append-only` });
    }
    const { rows } = await t.db.query<{ sender_memo: string; amount: bigint; n: number }>(
      "SELECT m.sender_memo, m.amount, (SELECT count(*)::int FROM postings p WHERE p.movement_id = m.id) AS n FROM movements m WHERE id = $1",
      [m.id],
    );
    expect(rows[0]).toEqual({ sender_memo: "Top-up", amount: 100n, n: 2 });
  });

  it("refuses a balance below its floor or above its ceiling (CHECK constraints)", async () => {
    const acc = await mainAccount(bob);
    await expect(t.db.query("UPDATE accounts SET balance = -1 WHERE id = $1", [acc.id])).rejects.toMatchObject({ code: "23514" });
    // The issuance account may go down without bound but never above 0.
    const issuance = (await systemWallet(t.db, backend.id, "issuance"))!;
    await expect(t.db.query("UPDATE accounts SET balance = 1 WHERE wallet_id = $1", [issuance.id])).rejects.toMatchObject({ code: "23514" });
    expect((await mainAccount(bob)).balance).toBe(acc.balance);
  });
});

describe("ledgerViolations reports what the database lets through", () => {
  it("reports nothing on a consistent ledger", async () => {
    expect(await ledgerViolations(t.db)).toEqual([]);
  });

  it("reports a cached balance that differs from the sum of its postings", async () => {
    const acc = await mainAccount(alice);
    const found = await rolledBack(async (c) => {
      await c.query("UPDATE accounts SET balance = balance + 1 WHERE id = $1", [acc.id]);
      return violationsIn(c);
    });
    expect(found).toEqual([`account ${acc.id}: balance ${acc.balance + 1n} but postings sum to ${acc.balance}`]);
  });

  it("reports an unbalanced movement and the currency it unbalances (before its commit fails)", async () => {
    const acc = await mainAccount(bob);
    const [id, found] = await rolledBack(async (c) => {
      const id = await insertMovementRow(c, alice, bob, 250n);
      await c.query("INSERT INTO postings (movement_id, account_id, amount, balance_after) VALUES ($1, $2, 250, $3)", [id, acc.id, acc.balance + 250n]);
      await c.query("UPDATE accounts SET balance = balance + 250 WHERE id = $1", [acc.id]);
      return [id, await violationsIn(c)] as const;
    });
    expect(found).toEqual(expect.arrayContaining([`postings of ${acc.currency_id} sum to 2.50`, `movement ${id} is not balanced`]));
    expect(found).toHaveLength(2);
  });

  it("reports a movement without postings", async () => {
    const [id, found] = await rolledBack(async (c) => {
      const id = await insertMovementRow(c, alice, bob, 100n);
      return [id, await violationsIn(c)] as const;
    });
    expect(found).toEqual([`movement ${id} has no postings`]);
  });

  it("reports a balanced movement across two currencies (the commit trigger only sums the movement)", async () => {
    const a = await mainAccount(alice);
    const x = await mainAccount(carolOther);
    const found = await rolledBack(async (c) => {
      const id = await insertMovementRow(c, alice, carolOther, 100n);
      await c.query("INSERT INTO postings (movement_id, account_id, amount, balance_after) VALUES ($1, $2, -100, $3)", [id, a.id, a.balance - 100n]);
      await c.query("INSERT INTO postings (movement_id, account_id, amount, balance_after) VALUES ($1, $2, 100, $3)", [id, x.id, x.balance + 100n]);
      await c.query("UPDATE accounts SET balance = balance - 100 WHERE id = $1", [a.id]);
      await c.query("UPDATE accounts SET balance = balance + 100 WHERE id = $1", [x.id]);
      return violationsIn(c);
    });
    expect(found.sort()).toEqual([`postings of ${a.currency_id} sum to -1.00`, `postings of ${x.currency_id} sum to 1.00`].sort());
  });

  it("reports a posting whose balance_after does not follow from the previous ones", async () => {
    const a = await mainAccount(alice);
    const b = await mainAccount(bob);
    const found = await rolledBack(async (c) => {
      const id = await insertMovementRow(c, alice, bob, 100n);
      await c.query("INSERT INTO postings (movement_id, account_id, amount, balance_after) VALUES ($1, $2, -100, $3)", [id, a.id, a.balance - 100n]);
      const { rows } = await c.query<{ id: bigint }>(
        "INSERT INTO postings (movement_id, account_id, amount, balance_after) VALUES ($1, $2, 100, $3) RETURNING id",
        [id, b.id, b.balance + 99n],
      );
      await c.query("UPDATE accounts SET balance = balance - 100 WHERE id = $1", [a.id]);
      await c.query("UPDATE accounts SET balance = balance + 100 WHERE id = $1", [b.id]);
      return [rows[0]!.id, await violationsIn(c)] as const;
    });
    expect(found[1]).toEqual([`posting ${found[0]}: balance_after does not follow`]);
  });
});

describe("postMovement", () => {
  const pay = (key: string, amount: string, to = bob, memo = "") =>
    postMovement(t.db, {
      kind: "payment",
      payerWalletId: alice,
      payeeWalletId: to,
      parts: [{ account: "main", amount: cents(amount) }],
      senderMemo: memo,
      recipientMemo: memo,
      idempotencyKey: key,
      initiatedBy: null,
    });

  it("writes two postings that sum to zero, with running balances, and updates the cached balances", async () => {
    const before = { alice: await walletBalances(t.db, alice), bob: await walletBalances(t.db, bob) };
    const { movement, replayed } = await pay(newKey(), "2.50");
    expect(replayed).toBe(false);
    expect(movement).toMatchObject({ kind: "payment", amount: 250n, payer_wallet_id: alice, payee_wallet_id: bob });
    const { rows } = await t.db.query<{ wallet_id: string; amount: bigint; balance_after: bigint }>(
      "SELECT a.wallet_id, p.amount, p.balance_after FROM postings p JOIN accounts a ON a.id = p.account_id WHERE p.movement_id = $1 ORDER BY p.amount",
      [movement.id],
    );
    expect(rows).toEqual([
      { wallet_id: alice, amount: -250n, balance_after: cents(before.alice.main!) - 250n },
      { wallet_id: bob, amount: 250n, balance_after: cents(before.bob.main!) + 250n },
    ]);
    expect(await walletBalances(t.db, alice)).toEqual({ main: formatAdd(before.alice.main!, -250n) });
    expect(await walletBalances(t.db, bob)).toEqual({ main: formatAdd(before.bob.main!, 250n) });
  });

  it("returns the movement already posted under a key, and refuses the key for another payment", async () => {
    const key = newKey();
    const first = await pay(key, "1.00", bob, "lunch");
    const count = await countMovements(t.db);
    const again = await pay(key, "1.00", bob, "lunch");
    expect(again.replayed).toBe(true);
    expect(again.movement.id).toBe(first.movement.id);
    for (const attempt of [() => pay(key, "1.01", bob, "lunch"), () => pay(key, "1.00", bob, "dinner")]) {
      const err = await attempt().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Refusal);
      expect(err).toMatchObject({ code: ErrorCode.idempotencyConflict, message: M.idempotencyConflict });
      expect(statusOf(err as Refusal)).toBe(409);
    }
    expect(await countMovements(t.db)).toBe(count);
  });

  it("refuses to overdraw, to pay across backends, and to mix or repeat sub-accounts; nothing is written", async () => {
    const count = await countMovements(t.db);
    const balance = (await walletBalances(t.db, alice)).main!;
    await expect(pay(newKey(), formatAdd(balance, 1n))).rejects.toMatchObject({ code: ErrorCode.insufficientBalance });
    await expect(pay(newKey(), "1.00", carolOther)).rejects.toMatchObject({ code: ErrorCode.validation, message: M.cannotSendToAccount });
    const base = { kind: "payment" as const, payerWalletId: alice, payeeWalletId: bob, senderMemo: "", recipientMemo: "", initiatedBy: null };
    await expect(postMovement(t.db, { ...base, idempotencyKey: newKey(), parts: [{ account: "main", amount: -1n }] })).rejects.toThrow(/positive/);
    await expect(postMovement(t.db, { ...base, idempotencyKey: newKey(), parts: [] })).rejects.toThrow(/positive/);
    await expect(
      postMovement(t.db, {
        ...base,
        idempotencyKey: newKey(),
        parts: [
          { account: "main", amount: 1n },
          { account: "main", amount: 1n },
        ],
      }),
    ).rejects.toThrow(/one part per sub-account/);
    // A ledger sub-account on a custodial wallet does not exist.
    await expect(postMovement(t.db, { ...base, idempotencyKey: newKey(), parts: [{ account: "cm", amount: 1n }] })).rejects.toMatchObject({
      code: ErrorCode.validation,
    });
    expect(await countMovements(t.db)).toBe(count);
    expect((await walletBalances(t.db, alice)).main).toBe(balance);
  });
});

const formatAdd = (amount: string, delta: bigint): string => formatCents(cents(amount) + delta);
