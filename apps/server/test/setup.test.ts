import { describe, expect, it } from "vitest";
import { createBackend, seedMember, topUp } from "./helpers";
import { setupServerTest } from "./setup";
import { openCustodialWallet } from "../src/services/wallets/wallets";

/**
 * The shared setup checks the ledger after every test, with no code of the test's own: a test
 * that leaves an unbalanced movement (written with the triggers off, as a bad restore or a hand
 * edit would) fails. `it.fails` passes only if the test fails, here through the setup's
 * afterEach alone; the next test repairs the ledger, and would fail itself if the first had
 * left nothing to repair.
 */
const t = setupServerTest({ server: false });
let broken: { movement_id: bigint; account_id: bigint } | undefined;

describe("the shared server test setup", () => {
  it.fails("fails a test that leaves an unbalanced movement, with no check of its own", async () => {
    const backend = await createBackend(t.db, { kind: "custodial" });
    const wallet = await openCustodialWallet(t.db, backend, (await seedMember(t.db)).id, "active");
    await topUp(t.db, wallet, "5.00");
    const { rows } = await t.db.query<{ movement_id: bigint; account_id: bigint }>("SELECT movement_id, account_id FROM postings ORDER BY id DESC LIMIT 1");
    broken = rows[0]!;
    const c = await t.db.connect();
    try {
      await c.query("BEGIN");
      await c.query("SET LOCAL session_replication_role = replica");
      await c.query("INSERT INTO postings (movement_id, account_id, amount, balance_after) VALUES ($1, $2, 100, 0)", [broken.movement_id, broken.account_id]);
      await c.query("COMMIT");
    } finally {
      c.release();
    }
  });

  it("repairs what the test above broke (and so proves it ran)", async () => {
    expect(broken).toBeDefined();
    const c = await t.db.connect();
    try {
      await c.query("BEGIN");
      await c.query("SET LOCAL session_replication_role = replica");
      const r = await c.query("DELETE FROM postings WHERE movement_id = $1 AND account_id = $2 AND amount = 100 AND balance_after = 0", [
        broken!.movement_id,
        broken!.account_id,
      ]);
      await c.query("COMMIT");
      expect(r.rowCount).toBe(1);
    } finally {
      c.release();
    }
  });
});
