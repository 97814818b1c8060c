import { randomInt } from "node:crypto";
import type { Db } from "../../src/db/pool";
import { openCustodialWallet, systemWallet } from "../../src/services/wallets/wallets";
import { cents, createBackend, memberToken, openTestLedgerWallet, seedMember, topUp } from "../helpers";
import { adminLoop, Journal, memberLoop, RunClock, seeded, type World } from "./workload";

/** Run length and seed, from the environment (`npm run test:load -- <seconds>` sets LOAD_SECONDS). */
export function loadSettings(defaultSeconds: number) {
  const seconds = Number(process.env.LOAD_SECONDS ?? defaultSeconds);
  const seed = Number(process.env.LOAD_SEED ?? randomInt(2 ** 31));
  const clients = Number(process.env.LOAD_CLIENTS ?? 20);
  return { seconds, seed, clients };
}

/**
 * An association for the load: a custodial and a ledger backend (with mutual credit), members
 * holding one wallet of each with some money, and two administrators with both rights.
 * Returns the world the clients act in and the balances given before the run.
 */
export async function createWorld(db: Db, instances: string[], members: number) {
  const custodial = await createBackend(db, { kind: "custodial" });
  const ledger = await createBackend(db, { kind: "ledger", cmFloor: "-10.00", cmCeiling: "20.00" });
  const safe = { custodial: (await systemWallet(db, custodial.id, "safe"))!.id, ledger: (await systemWallet(db, ledger.id, "safe"))!.id };
  const initial = new Map<string, bigint>([
    [safe.custodial, 0n],
    [safe.ledger, 0n],
  ]);
  const world: World = { instances, members: [], adminTokens: [], safe };
  for (let i = 0; i < members; i++) {
    const m = await seedMember(db, { firstName: `Load${i}` });
    const custodialWallet = await openCustodialWallet(db, custodial, m.id);
    const ledgerWallet = await openTestLedgerWallet(db, ledger, m.id);
    await topUp(db, custodialWallet, "100.00");
    await topUp(db, ledgerWallet.id, "50.00");
    initial.set(custodialWallet, cents("100.00"));
    initial.set(ledgerWallet.id, cents("50.00"));
    world.members.push({ id: m.id, token: await memberToken(db, m.id), custodial: custodialWallet, ledger: ledgerWallet });
  }
  for (let i = 0; i < 2; i++) {
    const a = await seedMember(db, { firstName: `Admin${i}`, canValidateAccounts: true, canValidateCredits: true });
    world.adminTokens.push(await memberToken(db, a.id));
  }
  const safeOf = (backendId: string) => (backendId === custodial.id ? safe.custodial : safe.ledger);
  return { world, initial, safeOf };
}

/**
 * Every member and administrator acting at once until `seconds` have passed, or, with `chaos`,
 * for as long as it runs; resolves with the journal (`journal`, or a new one) once every answer is definitive.
 */
export async function runLoad(
  world: World,
  safeOf: (backendId: string) => string,
  opts: { seed: number; seconds?: number; chaos?: () => Promise<void>; journal?: Journal },
) {
  const journal = opts.journal ?? new Journal();
  const clock = new RunClock();
  const rootRng = seeded(opts.seed);
  const clientSeed = () => Math.floor(rootRng() * 2 ** 31);
  const timer = opts.seconds !== undefined ? setTimeout(() => clock.end(), opts.seconds * 1000) : undefined;
  const chaos = opts.chaos ? opts.chaos().finally(() => clock.end()) : Promise.resolve();
  try {
    await Promise.all([
      ...world.members.map((m) => memberLoop(world, journal, m, seeded(clientSeed()), clock)),
      // Without chaos, the administrators take what is left to its end once the time is over (no server is down then).
      ...world.adminTokens.map((t) => adminLoop(world, journal, t, seeded(clientSeed()), clock, safeOf, !opts.chaos)),
      chaos,
    ]);
  } finally {
    clock.end();
    clearTimeout(timer);
  }
  return journal;
}
