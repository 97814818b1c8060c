import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerViolations } from "../src/services/ledger";
import { Writable } from "node:stream";
import { runLedgerCheck, scheduledCheck } from "../src/services/ledger-health";
import { openCustodialWallet, type BackendRow } from "../src/services/wallets";
import { Api, createBackend, createTestDatabase, memberToken, seedMember, startServer, topUp, type TestDatabase, type TestServer } from "./helpers";

/**
 * The ledger's health (issue 22): the invariant checks run by one instance at a time on a
 * schedule, and on demand; a row broken behind the ledger's back (its triggers switched off)
 * shows up as a violation in what the board reads.
 */
let tdb: TestDatabase;
let server: TestServer;
let backend: BackendRow;
let board: Api;
let boardId: bigint;
/** The server's log lines (JSON, one per line). */
const lines: { level: number; msg: string; violations?: string[] }[] = [];

beforeAll(async () => {
  tdb = await createTestDatabase();
  const logStream = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(l) as (typeof lines)[number]);
      done();
    },
  });
  server = await startServer(tdb.db, { logStream });
  backend = await createBackend(tdb.db, { kind: "custodial" });
  boardId = (await seedMember(tdb.db, { firstName: "Bea", lastName: "Board", canViewFigures: true })).id;
  board = new Api(server.baseUrl, await memberToken(tdb.db, boardId));
  const owner = await seedMember(tdb.db);
  await topUp(tdb.db, await openCustodialWallet(tdb.db, backend, owner.id, "active"), "25.00");
});

afterAll(async () => {
  await server?.close();
  await tdb?.drop();
});

const checks = async () =>
  (await tdb.db.query<{ trigger: string; n: number }>("SELECT trigger, count(*)::int AS n FROM ledger_checks GROUP BY trigger ORDER BY trigger")).rows;

/** Writes `sql` with the ledger's triggers off (superuser only), as a bad restore or a hand edit would. */
async function behindTheLedgersBack(sql: string, params: unknown[] = []) {
  const c = await tdb.db.connect();
  try {
    await c.query("BEGIN");
    await c.query("SET LOCAL session_replication_role = replica");
    await c.query(sql, params);
    await c.query("COMMIT");
  } finally {
    c.release();
  }
}

describe("ledger health", () => {
  it("nothing checked yet: the card says so", async () => {
    const r = await board.call("getLedgerHealth");
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ last: null, everyMinutes: 60 });
  });

  it("the schedule runs one check across instances, then none until the interval has passed", async () => {
    // Four instances' timers firing together: the advisory lock and the last check's time let one through.
    const runs = await Promise.all([1, 2, 3, 4].map(() => runLedgerCheck(tdb.db, null)));
    expect(runs.filter((r) => r.ran)).toHaveLength(1);
    expect((await runLedgerCheck(tdb.db, null)).ran).toBe(false);
    expect(await checks()).toEqual([{ trigger: "schedule", n: 1 }]);
    const r = await board.call("getLedgerHealth");
    expect(r.json.last).toMatchObject({ trigger: "schedule", violations: [], requestedBy: null });
  });

  it("on demand it always runs, says who asked, and is audited", async () => {
    const r = await board.call("checkLedger");
    expect(r.status).toBe(200);
    expect(r.json.last).toMatchObject({ trigger: "demand", violations: [], requestedBy: "Bea Board" });
    expect(Date.now() - Date.parse(r.json.last!.at)).toBeLessThan(60_000);
    const audit = await tdb.db.query("SELECT action, subject, details FROM audit_log WHERE member_id = $1", [boardId]);
    expect(audit.rows).toEqual([{ action: "ledger.checked", subject: "ledger", details: { violations: 0 } }]);
  });

  it("a posting written with the triggers off is a violation the next check reports", async () => {
    const { rows } = await tdb.db.query<{ movement_id: bigint; account_id: bigint }>("SELECT movement_id, account_id FROM postings ORDER BY id DESC LIMIT 1");
    const { movement_id, account_id } = rows[0]!;
    await behindTheLedgersBack("INSERT INTO postings (movement_id, account_id, amount, balance_after) VALUES ($1, $2, 100, 0)", [movement_id, account_id]);
    try {
      const r = await board.call("checkLedger");
      expect(r.status).toBe(200);
      const found = r.json.last!.violations;
      expect(found).toContain(`movement ${movement_id} is not balanced`);
      expect(found.some((v) => v.startsWith(`account ${account_id}: balance`))).toBe(true);
      // The card reads the same, until the next check.
      expect((await board.call("getLedgerHealth")).json.last!.violations).toEqual(found);
      // And the server's log has it as an error, where an operator's alerting looks.
      expect(lines.find((l) => l.msg === "ledger invariant violated")).toMatchObject({ level: 50, violations: found });
      // The schedule's run, once one is due, logs it too.
      await tdb.db.query("DELETE FROM ledger_checks");
      const logged: { o: object; m: string }[] = [];
      await scheduledCheck(tdb.db, { error: (o, m) => logged.push({ o, m }) });
      expect(logged).toEqual([{ o: { violations: found }, m: "ledger invariant violated" }]);
    } finally {
      await behindTheLedgersBack("DELETE FROM postings WHERE movement_id = $1 AND amount = 100 AND balance_after = 0", [movement_id]);
    }
    expect(await ledgerViolations(tdb.db)).toEqual([]);
    expect((await board.call("checkLedger")).json.last!.violations).toEqual([]);
  });
});
