import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { clearingWalletIdSql, ensureClearingWallet } from "../src/services/wallets/wallets";
import { createBackend } from "./helpers";
import { setupServerTest } from "./setup";

/**
 * A link's clearing wallet is made by the first payment across it (services/wallets/wallets.ts):
 * the payments that arrive at that moment must find it whole, its accounts with it, or their
 * holds are refused as payments to an account that cannot take them.
 */
const t = setupServerTest({ server: false });

async function linkRow(): Promise<{ id: bigint; public_id: string }> {
  const { rows } = await t.db.query<{ id: bigint; public_id: string }>(
    `INSERT INTO federation_links (public_id, role, state, peer_url, peer_name, peer_key,
       our_value_e4, their_value_e4, trust_limit_cents, enabled, peer_our_value_e4, peer_their_value_e4, peer_trust_limit_cents, peer_enabled)
     VALUES ($1, 'invitee', 'active', 'https://b.example', 'Association B', $2, 10000, 10000, 100000, true, 10000, 10000, 100000, true)
     RETURNING id, public_id`,
    [`fl_${randomBytes(12).toString("base64url")}`, randomBytes(32)],
  );
  return rows[0]!;
}

const lockWaits = async () =>
  (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")).rows[0]!
    .n;

describe("a link's clearing wallet", () => {
  it("is found with its accounts by a payment that arrives while another makes it", async () => {
    const backend = await createBackend(t.db, { kind: "custodial", symbol: "AAA" });
    const link = await linkRow();
    // Accounts cannot be written while the test holds this lock: the first maker stops there.
    const locker = await t.db.connect();
    try {
      await locker.query("BEGIN");
      await locker.query("LOCK TABLE accounts IN SHARE ROW EXCLUSIVE MODE");
      const first = ensureClearingWallet(t.db, backend, link);
      await expect.poll(lockWaits, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      // The second: told the wallet's id only once its accounts are there.
      let accountsWhenTold: number | null = null;
      const second = ensureClearingWallet(t.db, backend, link).then(async (id) => {
        accountsWhenTold = (await t.db.query("SELECT 1 FROM accounts WHERE wallet_id = $1", [id])).rowCount;
        return id;
      });
      // Until it waits for the first maker too, or was told (and then found what it found).
      await expect.poll(async () => accountsWhenTold !== null || (await lockWaits()) >= 2, { timeout: 10_000 }).toBe(true);
      await locker.query("COMMIT");
      const ids = await Promise.all([first, second]);
      expect(ids[0]).toBe(ids[1]);
      expect(accountsWhenTold).toBe(1);
      // The statements that look for it by its id (a batch of payments in) find it by the same one.
      const { rows } = await t.db.query<{ id: string }>(`SELECT ${clearingWalletIdSql("b", "$2")} AS id FROM backends b WHERE b.id = $1`, [
        backend.id,
        link.public_id,
      ]);
      expect(rows[0]!.id).toBe(ids[0]);
    } finally {
      locker.release();
    }
  });
});
