import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createPool, isDatabaseUnavailable, type Db } from "../src/db/pool";
import { DbProxy } from "./db-proxy";
import { setupServerTest } from "./setup";

/**
 * A database with no connection left to give (PostgreSQL's 53300: max_connections, or a role's or
 * database's CONNECTION LIMIT, met under a burst of several instances and tools on one database)
 * is waited for, as a pool's own connections are, and told as "try again in a moment" if it stays
 * full: never a server error. Here a role allowed one connection stands for a full database.
 */
const t = setupServerTest({ server: false });
const role = `mutua_full_${randomBytes(4).toString("hex")}`;
let url: string;
const pools: Db[] = [];
const clients: pg.Client[] = [];

beforeAll(async () => {
  await t.db.query(`CREATE ROLE ${role} LOGIN PASSWORD 'full' CONNECTION LIMIT 1`);
  const u = new URL(t.tdb.url);
  u.username = role;
  u.password = "full";
  url = u.toString();
});
afterAll(async () => {
  for (const p of pools) await p.end();
  for (const c of clients) await c.end().catch(() => undefined);
  await t.db.query(`DROP ROLE IF EXISTS ${role}`);
});

/** The role's one connection, held by another client. */
async function slotTaken(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  clients.push(c);
  await c.connect();
  return c;
}

function pool(opts: { waitWhenFullMs?: number } = {}): Db {
  const db = createPool(url, 2, opts);
  pools.push(db);
  return db;
}

describe("a database with no connection left", () => {
  it("is waited for, even by a pool that does not wait for a primary: the connection comes once a slot frees", async () => {
    const holder = await slotTaken();
    // Through a proxy that counts the pool's tries: the slot frees once it was refused and tried again.
    const proxy = await DbProxy.start(url);
    try {
      const db = createPool(proxy.url, 2);
      const asked = db.query<{ me: string }>("SELECT current_user AS me");
      await vi.waitFor(() => expect(proxy.accepted).toBeGreaterThanOrEqual(2), { timeout: 5_000, interval: 20 });
      await holder.end();
      expect((await asked).rows[0]!.me).toBe(role);
      await db.end(); // the slot given back for the next test
    } finally {
      await proxy.close();
    }
  });

  it("staying full past the wait, is told as unavailable (503, try again), not as a failure", async () => {
    await slotTaken();
    const db = pool({ waitWhenFullMs: 300 });
    const err = await db.query("SELECT 1").then(
      () => null,
      (e: unknown) => e as Error & { code?: string },
    );
    expect(err?.code).toBe("53300");
    expect(isDatabaseUnavailable(err)).toBe(true);
  });
});
