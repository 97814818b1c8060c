import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupServerTest } from "../setup";
import { ServerProcess } from "./processes";
import { verify } from "./verify";
import { replayAcknowledged } from "./workload";
import { createWorld, loadSettings, runLoad } from "./world";

/**
 * Two server processes on one PostgreSQL; 20 members and 2 administrators act at random for
 * 30 s (LOAD_SECONDS): payments of both backend kinds, amounts that must fail, replays and
 * altered replays of idempotency keys, simultaneous duplicates on both instances, top-up orders
 * marked paid and validated (sometimes twice at once), reconversions moved to paid. Afterwards
 * the ledger must agree exactly with what every client was told.
 */
const { seconds, seed, clients } = loadSettings(30);
const t = setupServerTest({ server: false });
const servers: ServerProcess[] = [];

beforeAll(async () => {
  servers.push(...(await Promise.all([ServerProcess.start(t.tdb.url), ServerProcess.start(t.tdb.url)])));
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

describe(`random load on two instances (${clients} members, ${seconds} s, LOAD_SEED=${seed})`, () => {
  it(
    "keeps every invariant, and the ledger matches each client's view of success exactly",
    async () => {
      const { world, initial, safeOf } = await createWorld(
        t.db,
        servers.map((s) => s.baseUrl),
        clients,
      );
      const journal = await runLoad(world, safeOf, { seconds, seed });
      const { problems, checked } = await verify(t.db, journal, initial);
      console.log(
        `load (LOAD_SEED=${seed}, ${seconds} s): ${checked} acknowledged movements checked, ${journal.unknown} unknown outcomes retried\n${journal.table()}`,
      );
      expect(problems).toEqual([]);
      expect(await replayAcknowledged(world, journal)).toEqual([]);
      // The run must have exercised what it claims to: successes and refusals of every kind.
      const tally = journal.tally;
      const n = (prefix: string) => [...tally.entries()].filter(([k]) => k.startsWith(prefix)).reduce((s, [, v]) => s + v, 0);
      expect(n("custodial payment 200")).toBeGreaterThan(0);
      expect(n("custodial payment 409 insufficient_balance")).toBeGreaterThan(0);
      expect(n("ledger payment 200")).toBeGreaterThan(0);
      expect(n("ledger payment 409")).toBeGreaterThan(0);
      expect(n("custodial reconversion 200") + n("ledger reconversion 200")).toBeGreaterThan(0);
      expect(n("replay 200")).toBeGreaterThan(0);
      expect(n("altered replay 409")).toBeGreaterThan(0);
      expect(n("altered replay 200")).toBe(0);
      expect(n("invalid amount 400")).toBeGreaterThan(0);
      expect(n("invalid amount 200")).toBe(0);
      expect(n("admin validate credit 200")).toBeGreaterThan(0);
      expect(n("admin reconversion → paid 200")).toBeGreaterThan(0);
    },
    (seconds + 240) * 1000,
  );
});
