import { afterAll, describe, expect, it } from "vitest";
import { ledgerViolations, postMovement } from "../../src/services/ledger/ledger";
import { systemWallet } from "../../src/services/wallets/wallets";
import { createBackend, createTestDatabase, newKey, type TestDatabase } from "../helpers";
import { ServerProcess, waitFor } from "./processes";

/**
 * Dues collected by a server process killed with SIGKILL in the middle of its run over 2,000
 * members, then started again: each member is charged exactly once for the period, as the
 * ledger itself says (one dues movement per member under the period's key, one run row each, the
 * ledger's invariants whole). Each member's period is claimed, charged and moved on in one
 * transaction (services/association/dues-collect.ts), so what the kill cut short rolled back and
 * is done once by the process started again.
 */
const MEMBERS = 2000;
let tdb: TestDatabase | undefined;
let server: ServerProcess | undefined;

afterAll(async () => {
  await server?.stop();
  await tdb?.drop();
});

describe("dues collected under kill -9", () => {
  it("charge each of 2,000 members once for the period, whatever the kill cut short", async () => {
    tdb = await createTestDatabase();
    const db = tdb.db;
    const backend = await createBackend(db, { kind: "custodial", symbol: "DL" });
    // Members and their wallets in a few statements; their money through the ledger's one path.
    await db.query(
      `INSERT INTO members (email, first_name, last_name, password_hash, search_text, name_key)
       SELECT 'payer' || i || '@example.org', 'Payer', 'N' || i, 'x', 'payer n' || i, 'payer n' || i FROM generate_series(1, $1) i`,
      [MEMBERS],
    );
    await db.query(
      `INSERT INTO wallets (id, backend_id, member_id, status) SELECT 'custodial:dues' || m.id, $1, m.id, 'active' FROM members m WHERE m.email LIKE 'payer%'`,
      [backend.id],
    );
    await db.query(
      `INSERT INTO accounts (wallet_id, currency_id, kind, floor) SELECT w.id, $2, 'main', 0 FROM wallets w WHERE w.backend_id = $1 AND w.role = 'member'`,
      [backend.id, backend.currency_id],
    );
    const issuance = (await systemWallet(db, backend.id, "issuance"))!;
    const { rows: wallets } = await db.query<{ id: string }>("SELECT id FROM wallets WHERE backend_id = $1 AND role = 'member'", [backend.id]);
    for (let i = 0; i < wallets.length; i += 200)
      await Promise.all(
        wallets.slice(i, i + 200).map((w) =>
          postMovement(db, {
            kind: "topup",
            payerWalletId: issuance.id,
            payeeWalletId: w.id,
            parts: [{ account: "main", amount: 1000n }],
            senderMemo: "Top-up",
            recipientMemo: "Top-up",
            idempotencyKey: newKey("topup"),
            initiatedBy: null,
          }),
        ),
      );
    // Dues of 2.00 a month from today, in the association's zone (config.json's default: Europe/Paris).
    const { rows: day } = await db.query<{ today: string }>("SELECT (now() AT TIME ZONE 'Europe/Paris')::date::text AS today");
    const today = day[0]!.today;
    await db.query("INSERT INTO dues_plan (mode, period, first_date, member_amount) VALUES ('fixed', 'monthly', $1, 200)", [today]);

    const runs = async () => Number((await db.query<{ n: string }>("SELECT count(*) AS n FROM dues_runs")).rows[0]!.n);
    const started = Date.now();
    server = await ServerProcess.start(tdb.url, { DUE_POLL_SECONDS: "1" });
    // Killed once it is well into the run, not before it began nor after it ended.
    expect(await waitFor(async () => (await runs()) >= 300, 30_000, 20)).toBe(true);
    await server.kill9();
    const atKill = await runs();
    expect(atKill).toBeLessThan(MEMBERS);
    await server.restart();
    expect(await waitFor(async () => (await runs()) >= MEMBERS, 60_000, 100)).toBe(true);

    const { rows } = await db.query<{ movements: string; members: string; keys: string; paid: string; cents: string; moved_on: string }>(
      `SELECT (SELECT count(*)::text FROM movements WHERE kind = 'dues') AS movements,
              (SELECT count(DISTINCT payer_wallet_id)::text FROM movements WHERE kind = 'dues') AS members,
              (SELECT count(*)::text FROM movements mv JOIN wallets w ON w.id = mv.payer_wallet_id
                WHERE mv.kind = 'dues' AND mv.idempotency_key = 'dues:' || w.member_id || ':' || $1) AS keys,
              (SELECT count(*)::text FROM dues_runs WHERE status = 'paid' AND period = $1::date) AS paid,
              (SELECT coalesce(sum(amount), 0)::text FROM movements WHERE kind = 'dues') AS cents,
              (SELECT count(*)::text FROM dues_members WHERE next_due > $1::date) AS moved_on`,
      [today],
    );
    console.log(`dues under kill -9: ${atKill} of ${MEMBERS} periods charged when the process was killed; all within ${Date.now() - started} ms`);
    expect(rows[0]).toEqual({
      movements: String(MEMBERS),
      members: String(MEMBERS),
      keys: String(MEMBERS),
      paid: String(MEMBERS),
      cents: String(200 * MEMBERS),
      moved_on: String(MEMBERS),
    });
    // Every member's wallet holds 8.00 after it: charged once, not twice, not never.
    const { rows: balances } = await db.query<{ balance: string; n: string }>(
      "SELECT a.balance::text AS balance, count(*)::text AS n FROM accounts a JOIN wallets w ON w.id = a.wallet_id WHERE w.role = 'member' GROUP BY a.balance",
    );
    expect(balances).toEqual([{ balance: "800", n: String(MEMBERS) }]);
    expect(await ledgerViolations(db)).toEqual([]);
    expect(server.unexpectedExits).toEqual([]);
  });
});
