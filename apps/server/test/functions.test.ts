import { afterAll, describe, expect, it } from "vitest";
import { functionSources } from "../src/db/functions";
import { migrate } from "../src/db/migrate";
import { createTestDatabase, type TestDatabase } from "./helpers";

/**
 * Every migration applied to an empty database leaves each SQL function exactly as its one
 * source file in db/functions/ says (a change to ledger_post is a change to that file alone),
 * and no function of the database lives only in a migration.
 */
let tdb: TestDatabase | undefined;
afterAll(async () => tdb?.drop());

describe("SQL functions", () => {
  it("after every migration on an empty database, each function equals its source file, and each has one", async () => {
    tdb = await createTestDatabase({ migrate: false });
    await migrate(tdb.url);
    const { rows } = await tdb.db.query<{ name: string; body: string }>(
      `SELECT p.proname AS name, p.prosrc AS body FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
        WHERE p.pronamespace = current_schema()::regnamespace AND l.lanname = 'plpgsql' ORDER BY 1`,
    );
    const sources = functionSources();
    expect(rows.map((r) => r.name)).toEqual(sources.map((s) => s.name).sort());
    for (const s of sources) expect(rows.find((r) => r.name === s.name)?.body, s.name).toBe(s.body);
    expect(sources.map((s) => s.name)).toContain("ledger_post");
  });

  it("a function changed behind the migrator's back is brought back at the next start, and nothing else is touched", async () => {
    const db = tdb!.db;
    await db.query("CREATE OR REPLACE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$");
    const logged: string[] = [];
    await migrate(tdb!.url, (m) => logged.push(m));
    expect(logged.filter((m) => m.startsWith("functions"))).toEqual(["functions brought to their live versions: ledger_append_only"]);
    const { rows } = await db.query<{ body: string }>("SELECT prosrc AS body FROM pg_proc WHERE proname = 'ledger_append_only'");
    expect(rows[0]!.body).toBe(functionSources().find((s) => s.name === "ledger_append_only")!.body);
  });
});
