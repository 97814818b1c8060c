import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "../src/db/embedded";
import { migrate } from "../src/db/migrate";
import { createPool, type Db } from "../src/db/pool";
import { seedDemo } from "../src/demo/seed";
import { ledgerViolations } from "../src/services/ledger/ledger";
import { createTestDatabase, memberToken, newKey, startServer, Api, type TestDatabase } from "./helpers";
import { setupServerTest } from "./setup";

/**
 * npm run backup / npm run restore, run as an operator would: a backup restored into a fresh
 * database holds the same ledger, row for row, and the association carries on from it.
 */
const ROOT = path.resolve(import.meta.dirname, "../../..");
/** The first backup's source: a migrated database of the file's own (the others are made by the tests that need them). */
const t = setupServerTest({ server: false });
const cleanups: (() => Promise<unknown> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

function tempDir(tag: string) {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), `mutua-${tag}-`));
  cleanups.push(() => fs.rmSync(d, { recursive: true, force: true }));
  return d;
}

function npmScript(script: "backup" | "restore", args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", `apps/server/src/cli/${script}.ts`, ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: "", DATA_DIR: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

/** Every table's rows, as text, in a stable order: two databases with equal fingerprints hold the same data. */
async function fingerprint(db: Db): Promise<Record<string, string>> {
  const { rows: tables } = await db.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1");
  const out: Record<string, string> = {};
  for (const { tablename } of tables) {
    const { rows } = await db.query<{ n: number; h: string | null }>(
      `SELECT count(*)::int AS n, md5(string_agg(t::text, E'\\n' ORDER BY t::text)) AS h FROM "${tablename}" t`,
    );
    out[tablename] = `${rows[0]!.n} ${rows[0]!.h}`;
  }
  return out;
}

/** The demo association and a few payments made through the API afterwards. */
async function association(db: Db) {
  await seedDemo(db);
  const server = await startServer(db);
  try {
    const { rows } = await db.query<{ member_id: bigint; id: string; backend_id: string }>(
      `SELECT w.member_id, w.id, w.backend_id FROM wallets w JOIN backends b ON b.id = w.backend_id WHERE b.kind = 'custodial' AND w.role = 'member' AND w.status = 'active'
         AND w.member_id IN (SELECT id FROM members WHERE email IN ('alice@example.com', 'bob@example.com')) ORDER BY w.id LIMIT 2`,
    );
    const [a, b] = rows;
    const api = new Api(server.baseUrl, await memberToken(db, a!.member_id));
    for (let i = 0; i < 3; i++) {
      const r = await api.call("transfer", {
        body: { from: a!.id, to: b!.id, key: newKey(), parts: [{ account: "main", amount: "0.25" }], senderMemo: `before backup ${i}` },
      });
      expect(r.status).toBe(200);
    }
    return { payer: a!, payee: b! };
  } finally {
    await server.close();
  }
}

describe("backup and restore (DATABASE_URL)", () => {
  it("restores into an empty database the same rows, every invariant holds, and payments carry on", async () => {
    const source = t.tdb;
    const { payer, payee } = await association(source.db);
    const file = path.join(tempDir("backup"), "association.dump");

    const backup = await npmScript("backup", [file], { DATABASE_URL: source.url });
    expect(backup.output).toContain(`written to ${file}`);
    expect(backup.code).toBe(0);
    const password = decodeURIComponent(new URL(source.url).password);
    if (password) expect(backup.output).not.toContain(password);

    const target: TestDatabase = await createTestDatabase({ migrate: false });
    cleanups.push(() => target.drop());
    const restore = await npmScript("restore", [file], { DATABASE_URL: target.url });
    expect(restore.code, restore.output).toBe(0);

    expect(await fingerprint(target.db)).toEqual(await fingerprint(source.db));
    expect(await ledgerViolations(target.db)).toEqual([]);

    // The restored association works: a payment gets the next ids, and the old keys still answer.
    const server = await startServer(target.db);
    cleanups.push(() => server.close());
    const api = new Api(server.baseUrl, await memberToken(target.db, payer.member_id));
    const r = await api.call("transfer", { body: { from: payer.id, to: payee.id, key: newKey(), parts: [{ account: "main", amount: "0.25" }] } });
    expect(r.status).toBe(200);
    expect(await ledgerViolations(target.db)).toEqual([]);
  });

  it("refuses to restore over a database that holds data, and changes nothing", async () => {
    const source: TestDatabase = await createTestDatabase();
    cleanups.push(() => source.drop());
    await association(source.db);
    const file = path.join(tempDir("backup"), "a.dump");
    expect((await npmScript("backup", [file], { DATABASE_URL: source.url })).code).toBe(0);

    const busy: TestDatabase = await createTestDatabase();
    cleanups.push(() => busy.drop());
    await association(busy.db);
    const before = await fingerprint(busy.db);
    const r = await npmScript("restore", [file], { DATABASE_URL: busy.url });
    expect(r.code).toBe(1);
    expect(r.output).toContain("already holds data: restore into an empty database");
    expect(await fingerprint(busy.db)).toEqual(before);
  });

  it("leaves no file behind when the backup fails", async () => {
    const dir = tempDir("backup-fail");
    const r = await npmScript("backup", [path.join(dir, "x.dump")], { DATABASE_URL: "postgres://nobody@127.0.0.1:1/nothing" });
    expect(r.code).toBe(1);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe.skipIf(Boolean(process.env.TEST_PG_URL))("backup and restore (embedded PostgreSQL)", () => {
  it("backs up the running embedded database, and restores it into a new data folder", async () => {
    const dataDir = tempDir("data");
    const running: EmbeddedPostgres = await startEmbeddedPostgres(dataDir, { log: () => {} });
    cleanups.push(() => running.stop());
    await migrate(running.url);
    const db = createPool(running.url, 4);
    cleanups.push(() => db.end());
    await association(db);
    const file = path.join(tempDir("backup"), "embedded.dump");
    // Mutua keeps running meanwhile: the backup finds the cluster through its pid file.
    const backup = await npmScript("backup", [file], { DATA_DIR: dataDir });
    expect(backup.code, backup.output).toBe(0);

    const newDir = tempDir("restored");
    const restore = await npmScript("restore", [file], { DATA_DIR: newDir });
    expect(restore.code, restore.output).toBe(0);
    expect(restore.output).toContain(`into the embedded PostgreSQL in ${newDir}`);

    const restored = await startEmbeddedPostgres(newDir, { log: () => {} });
    cleanups.push(() => restored.stop());
    const rdb = createPool(restored.url, 2);
    cleanups.push(() => rdb.end());
    expect(await fingerprint(rdb)).toEqual(await fingerprint(db));
    expect(await ledgerViolations(rdb)).toEqual([]);
  });
});
