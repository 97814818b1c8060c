import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { migrate } from "../src/db/migrate";
import { createTestDatabase, type TestDatabase } from "./helpers";

const MIGRATIONS = fs.readdirSync(path.join(import.meta.dirname, "../src/db/migrations")).filter((f) => /\.(sql|[jt]s)$/.test(f));
const made: TestDatabase[] = [];

afterAll(async () => {
  for (const d of made) await d.drop();
});

async function fresh(): Promise<TestDatabase> {
  const d = await createTestDatabase({ migrate: false });
  made.push(d);
  return d;
}

async function applied(d: TestDatabase): Promise<string[]> {
  const { rows } = await d.db.query<{ name: string }>("SELECT name FROM schema_migrations ORDER BY run_on, id");
  return rows.map((r) => r.name);
}

describe("migrate", () => {
  it("applies every migration to an empty database", async () => {
    const d = await fresh();
    await migrate(d.url);
    expect(await applied(d)).toEqual(MIGRATIONS.map((f) => f.replace(/\.[^.]+$/, "")));
    const { rows } = await d.db.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    );
    expect(rows.map((r) => r.table_name)).toEqual(
      expect.arrayContaining(["backends", "currencies", "members", "password_resets", "rate_limits", "schema_migrations", "sessions"]),
    );
  });

  it("a second run is a no-op that keeps the data", async () => {
    const d = await fresh();
    await migrate(d.url);
    const first = await applied(d);
    await d.db.query("INSERT INTO currencies (id, name, symbol) VALUES ('kept', 'Kept', 'K')");
    await migrate(d.url);
    expect(await applied(d)).toEqual(first);
    const { rows } = await d.db.query("SELECT id FROM currencies");
    expect(rows).toEqual([{ id: "kept" }]);
  });

  it("concurrent runs on a fresh database all succeed and apply each migration once", async () => {
    const d = await fresh();
    // As several server instances starting together would.
    const results = await Promise.allSettled([migrate(d.url), migrate(d.url), migrate(d.url)]);
    expect(results.map((r) => (r.status === "rejected" ? String(r.reason) : "ok"))).toEqual(["ok", "ok", "ok"]);
    expect(await applied(d)).toEqual(MIGRATIONS.map((f) => f.replace(/\.[^.]+$/, "")));
  });
});
