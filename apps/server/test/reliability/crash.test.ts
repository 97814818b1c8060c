import { afterAll, describe, expect, it } from "vitest";
import { buildPath } from "@mutua/domain";
import { ledgerViolations } from "../../src/services/ledger/ledger";
import { openCustodialWallet } from "../../src/services/wallets/wallets";
import { createBackend, createTestDatabase, memberToken, newKey, seedMember, topUp, walletBalances, type TestDatabase } from "../helpers";
import { expectSurvived, KILLS } from "./kill-checks";
import { ServerProcess, waitFor } from "./processes";
import { pause, seeded } from "./workload";
import { createWorld, loadSettings, runLoad } from "./world";

/**
 * The load of load.test.ts while a server process dies without warning (kill -9, then started
 * again), 10 times in CI (CRASH_KILLS; `npm run test:load` kills 30 times, for the rarer moments a
 * kill can land on); the PostgreSQL's own kill -9 is crash-postgres.test.ts, a file of its own so
 * that the suite's two files at a time pack evenly. Clients retry what they did not hear back
 * about, as the app does. Afterwards every transfer a client saw acknowledged is in the ledger,
 * a retried key answers the original result, and the ledger matches every client's view.
 */
const { seed, clients } = loadSettings(0);
const cleanups: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

describe(`kill -9 of a server under load (${KILLS} times, LOAD_SEED=${seed})`, () => {
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
    await expectSurvived(tdb.db, world, journal, "server kill -9", kills, seed);
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

    // The first shop let go: a slot finishes its payment and takes the queue as one batch, which
    // waits on the second shop. On a loaded machine a request seen marking its session may join the
    // queue only after that batch was taken: the other slot then takes it as a second batch, which
    // waits on the first's locks. Every batch in flight waits, none running, when the server dies.
    await lockFirst.query("COMMIT");
    const batches = (state: string) => activity(`query LIKE '%ledger_post_batch%' AND state = 'active' AND ${state}`);
    expect(
      await waitFor(
        async () => (await batches("wait_event_type = 'Lock'")) >= 1 && (await batches("wait_event_type IS DISTINCT FROM 'Lock'")) === 0,
        10_000,
        20,
      ),
    ).toBe(true);
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
});
