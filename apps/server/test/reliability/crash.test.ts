import { afterAll, describe, expect, it } from "vitest";
import { buildPath } from "@mutua/domain";
import { migrate } from "../../src/db/migrate";
import { createPool, type Db } from "../../src/db/pool";
import { ledgerViolations } from "../../src/services/ledger/ledger";
import { openCustodialWallet } from "../../src/services/wallets/wallets";
import { createBackend, createTestDatabase, memberToken, newKey, seedMember, topUp, walletBalances, type TestDatabase } from "../helpers";
import { CrashablePostgres, ServerProcess, waitFor } from "./processes";
import { verify } from "./verify";
import { pause, replayAcknowledged, seeded } from "./workload";
import { createWorld, loadSettings, runLoad } from "./world";

/**
 * The load of load.test.ts while something dies without warning, 10 times in CI (CRASH_KILLS;
 * `npm run test:load` kills 30 times, for the rarer moments a kill can land on): a server
 * process (kill -9, then started again), and separately the PostgreSQL (postmaster and backends
 * kill -9'd together, then recovered from its WAL). Clients retry what they did not hear back
 * about, as the app does. Afterwards every transfer a client saw acknowledged is in the ledger,
 * a retried key answers the original result, and the ledger matches every client's view.
 */
const { seed, clients } = loadSettings(0);
const KILLS = Number(process.env.CRASH_KILLS ?? 10);
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

  it("of a server process in the middle of a batch: nothing acknowledged is lost, each unanswered payment is paid once when retried", async () => {
    const tdb: TestDatabase = await createTestDatabase();
    cleanups.push(() => tdb.drop());
    const server = await ServerProcess.start(tdb.url);
    cleanups.push(() => server.stop());
    const backend = await createBackend(tdb.db, { kind: "custodial" });
    const shopWallet = async () => openCustodialWallet(tdb.db, backend, (await seedMember(tdb.db)).id);
    const [first, second] = [await shopWallet(), await shopWallet()];
    const payers = await Promise.all(
      Array.from({ length: 26 }, async () => {
        const m = await seedMember(tdb.db);
        const wallet = await openCustodialWallet(tdb.db, backend, m.id);
        await topUp(tdb.db, wallet, "10.00");
        return { wallet, token: await memberToken(tdb.db, m.id), member: m.id };
      }),
    );
    const payments = payers.map((p, i) => ({
      p,
      body: { from: p.wallet, to: i < 2 ? first : second, parts: [{ account: "main", amount: "1.00" }], key: newKey() },
    }));
    const pay = ({ p, body }: (typeof payments)[number]) =>
      fetch(server.baseUrl + buildPath("transfer"), {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${p.token}` },
        body: JSON.stringify(body),
      });
    const activity = async (where: string) =>
      (
        await tdb.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND ${where}`,
        )
      ).rows[0]!.n;

    // Four payments acknowledged before anything dies.
    const acknowledged = payments.slice(22);
    for (const r of await Promise.all(acknowledged.map(pay))) expect(r.status).toBe(200);

    // The two batches the server may have in flight wait on the first shop's account, held by the test.
    const [lockFirst, lockSecond] = [await tdb.db.connect(), await tdb.db.connect()];
    cleanups.push(async () => {
      lockFirst.release();
      lockSecond.release();
    });
    for (const [c, shop] of [
      [lockFirst, first],
      [lockSecond, second],
    ] as const) {
      await c.query("BEGIN");
      await c.query("SELECT 1 FROM accounts WHERE wallet_id = $1 FOR UPDATE", [shop]);
    }
    const cut = (r: Promise<Response>) =>
      r.then(
        () => "answered",
        () => "cut",
      );
    const inFlight = payments.slice(0, 2).map((x) => cut(pay(x)));
    expect(await waitFor(async () => (await activity("wait_event_type = 'Lock'")) === 2, 10_000, 20)).toBe(true);
    // Twenty more queue in the server. Their sessions were last seen long ago, so each request marks
    // its own (a write the test can see) before it reads the wallets and joins the queue.
    const queued = payments.slice(2, 22);
    await tdb.db.query("UPDATE sessions SET last_seen_at = now() - interval '2 minutes' WHERE member_id = ANY($1::bigint[])", [queued.map((x) => x.p.member)]);
    const queuedAnswers = queued.map((x) => cut(pay(x)));
    const seen = async () =>
      (
        await tdb.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM sessions WHERE member_id = ANY($1::bigint[]) AND last_seen_at > now() - interval '1 minute'",
          [queued.map((x) => x.p.member)],
        )
      ).rows[0]!.n === queued.length;
    expect(
      await waitFor(async () => (await seen()) && (await activity("state = 'active' AND wait_event_type IS DISTINCT FROM 'Lock'")) === 0, 10_000, 20),
    ).toBe(true);

    // The first shop let go: a slot finishes its payment and takes the queue as one batch, which waits on the second shop.
    await lockFirst.query("COMMIT");
    expect(await waitFor(async () => (await activity("wait_event_type = 'Lock' AND query LIKE '%ledger_post_batch%'")) === 1, 10_000, 20)).toBe(true);
    await server.kill9();
    expect(new Set(await Promise.all(queuedAnswers))).toEqual(new Set(["cut"]));
    // The batch's statement, alone in the database now, commits as one or not at all.
    await lockSecond.query("COMMIT");
    await Promise.all(inFlight);
    await server.restart();

    // The app retries every payment it did not hear back about, with its key: each is paid exactly once.
    for (const r of await Promise.all(payments.map(pay))) expect(r.status).toBe(200);
    const { rows } = await tdb.db.query<{ key: string; n: number }>(
      "SELECT idempotency_key AS key, count(*)::int AS n FROM movements WHERE idempotency_key = ANY($1::text[]) GROUP BY 1",
      [payments.map((x) => x.body.key)],
    );
    expect(rows.length).toBe(payments.length);
    expect(rows.every((r) => r.n === 1)).toBe(true);
    expect(await walletBalances(tdb.db, second)).toEqual({ main: "24.00" });
    expect(await ledgerViolations(tdb.db)).toEqual([]);
    expect(server.unexpectedExits).toEqual([]);
  }, 120_000);

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
