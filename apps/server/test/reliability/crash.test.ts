import { afterAll, describe, expect, it } from "vitest";
import { migrate } from "../../src/db/migrate";
import { createPool, type Db } from "../../src/db/pool";
import { createTestDatabase, type TestDatabase } from "../helpers";
import { CrashablePostgres, ServerProcess } from "./processes";
import { verify } from "./verify";
import { pause, replayAcknowledged, seeded } from "./workload";
import { createWorld, loadSettings, runLoad } from "./world";

/**
 * The load of load.test.ts while something dies without warning, 20 times (CRASH_KILLS): a server
 * process (kill -9, then started again), and separately the PostgreSQL (postmaster and backends
 * kill -9'd together, then recovered from its WAL). Clients retry what they did not hear back
 * about, as the app does. Afterwards every transfer a client saw acknowledged is in the ledger,
 * a retried key answers the original result, and the ledger matches every client's view.
 */
const { seed, clients } = loadSettings(0);
const KILLS = Number(process.env.CRASH_KILLS ?? 20);
const cleanups: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

async function check(db: Db, world: Awaited<ReturnType<typeof createWorld>>, journal: Awaited<ReturnType<typeof runLoad>>, what: string, kills: number) {
  const { problems, checked } = await verify(db, journal, world.initial);
  console.log(
    `${what}: ${kills} kills, ${checked} acknowledged movements checked, ${journal.unknown} unknown outcomes retried (LOAD_SEED=${seed})\n${journal.table()}`,
  );
  expect(problems).toEqual([]);
  expect(await replayAcknowledged(world.world, journal)).toEqual([]);
  expect(journal.acknowledged().length).toBeGreaterThan(KILLS);
  expect(journal.unknown).toBeGreaterThan(0);
}

describe(`kill -9 under load (${KILLS} times, LOAD_SEED=${seed})`, () => {
  it("of a server process: nothing acknowledged is lost, nothing is paid twice", async () => {
    const tdb: TestDatabase = await createTestDatabase();
    cleanups.push(() => tdb.drop());
    const servers = await Promise.all([ServerProcess.start(tdb.url), ServerProcess.start(tdb.url)]);
    cleanups.push(() => Promise.all(servers.map((s) => s.stop())));
    const world = await createWorld(
      tdb.db,
      servers.map((s) => s.baseUrl),
      clients,
    );
    const rng = seeded(seed);
    let kills = 0;
    const journal = await runLoad(world.world, world.safeOf, {
      seed,
      chaos: async () => {
        await pause(1000); // the load gets going before the first kill
        for (; kills < KILLS;) {
          const victim = servers[Math.floor(rng() * servers.length)]!;
          await victim.kill9();
          kills++;
          await victim.restart();
          await pause(200 + rng() * 1200); // the next kill lands at a seeded random moment of the load
        }
      },
    });
    await check(tdb.db, world, journal, "server kill -9", kills);
    expect(servers.flatMap((s) => s.unexpectedExits)).toEqual([]);
  }, 600_000);

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
      await check(db, world, journal, "PostgreSQL kill -9", kills);
      // The servers rode the database's crashes out: they answered 5xx meanwhile and never died.
      expect(servers.flatMap((s) => s.unexpectedExits)).toEqual([]);
    },
    600_000,
  );
});
