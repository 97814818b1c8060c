import { afterAll, describe, expect, it } from "vitest";
import { migrate } from "../../src/db/migrate";
import { createPool } from "../../src/db/pool";
import { expectSurvived, KILLS } from "./kill-checks";
import { CrashablePostgres, ServerProcess } from "./processes";
import { pause, seeded } from "./workload";
import { createWorld, loadSettings, runLoad } from "./world";

/**
 * The load of load.test.ts while the PostgreSQL dies without warning (postmaster and backends
 * kill -9'd together, then recovered from its WAL), 10 times in CI (CRASH_KILLS). Clients retry
 * what they did not hear back about, as the app does. Afterwards every transfer a client saw
 * acknowledged is in the ledger, a retried key answers the original result, and the ledger
 * matches every client's view. Embedded pass only: it kills its own PostgreSQL.
 */
const { seed, clients } = loadSettings(0);
const cleanups: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

describe(`kill -9 of PostgreSQL under load (${KILLS} times, LOAD_SEED=${seed})`, () => {
  it.skipIf(process.env.TEST_PG_URL !== undefined)(
    "of the embedded PostgreSQL: recovery keeps every acknowledged transfer",
    async () => {
      const pgs = await CrashablePostgres.start();
      cleanups.push(() => pgs.stop());
      await migrate(pgs.url);
      const servers = await Promise.all([ServerProcess.start(pgs.url), ServerProcess.start(pgs.url)]);
      cleanups.push(() => Promise.all(servers.map((s) => s.stop())));
      const setup = createPool(pgs.url, 5);
      const world = await createWorld(
        setup,
        servers.map((s) => s.baseUrl),
        clients,
      );
      await setup.end();
      const rng = seeded(seed);
      let kills = 0;
      const journal = await runLoad(world.world, world.safeOf, {
        seed,
        chaos: async () => {
          await pause(1000); // the load gets going before the first crash
          for (; kills < KILLS;) {
            await pgs.crashAndRestart();
            kills++;
            await pause(300 + rng() * 1500); // the next crash lands at a seeded random moment of the load
          }
        },
      });
      const db = createPool(pgs.url, 5);
      cleanups.push(() => db.end());
      await expectSurvived(db, world, journal, "PostgreSQL kill -9", kills, seed);
      // The servers rode the database's crashes out: they answered 5xx meanwhile and never died.
      expect(servers.flatMap((s) => s.unexpectedExits)).toEqual([]);
    },
    600_000,
  );
});
