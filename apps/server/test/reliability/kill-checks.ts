import { expect } from "vitest";
import type { Db } from "../../src/db/pool";
import { verify } from "./verify";
import { replayAcknowledged } from "./workload";
import type { createWorld, runLoad } from "./world";

/** How many times the kill -9 runs kill (CRASH_KILLS): 10 in CI, 30 by `npm run test:load`. */
export const KILLS = Number(process.env.CRASH_KILLS ?? 10);

/**
 * After a run with `kills` kills (`what`): every transfer a client saw acknowledged is in the
 * ledger, a retried key answers the original result, and the ledger matches every client's view;
 * and the run was one where kills landed on traffic (acknowledged and unknown outcomes both seen).
 */
export async function expectSurvived(
  db: Db,
  world: Awaited<ReturnType<typeof createWorld>>,
  journal: Awaited<ReturnType<typeof runLoad>>,
  what: string,
  kills: number,
  seed: number,
): Promise<void> {
  const { problems, checked } = await verify(db, journal, world.initial);
  console.log(
    `${what}: ${kills} kills, ${checked} acknowledged movements checked, ${journal.unknown} unknown outcomes retried (LOAD_SEED=${seed})\n${journal.table()}`,
  );
  expect(problems).toEqual([]);
  expect(await replayAcknowledged(world.world, journal)).toEqual([]);
  expect(journal.acknowledged().length).toBeGreaterThan(KILLS);
  expect(journal.unknown).toBeGreaterThan(0);
}
