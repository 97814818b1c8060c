import { afterAll, afterEach, beforeAll, expect } from "vitest";
import type { Db } from "../src/db/pool";
import { ledgerViolations } from "../src/services/ledger/ledger";
import { createTestDatabase, startServer, type TestDatabase, type TestServer } from "./helpers";

/** What `startServer` takes: settings as environment variables, a mailer, a log stream, a push agent. */
export type ServerOptions = NonNullable<Parameters<typeof startServer>[1]>;

export interface ServerTest {
  /** The file's own migrated database. */
  readonly tdb: TestDatabase;
  /** Its pool. */
  readonly db: Db;
  /** The file's server on that database (unless the setup was asked for none). */
  readonly server: TestServer;
  /** Another server on the same database (another instance, or other settings), closed after the file. */
  startServer(opts?: ServerOptions): Promise<TestServer>;
  /**
   * For a test that breaks the ledger on purpose (a posting written with the triggers off, to see
   * it reported): the check after this test is skipped. The test must still leave the ledger as
   * it found it if later tests of the file check it.
   */
  allowLedgerViolations(): void;
}

/**
 * One setup for a server test file: a database of its own (migrated), the real app on it, and
 * after every test the ledger's invariant check, so that every test that moves money is checked
 * without asking (a movement that does not balance, a cached balance that disagrees with its
 * postings, a balance past its floor or ceiling fails the test that left it). Everything is
 * closed and dropped after the file.
 *
 * `server: false` for a file that starts its servers itself (or none); an object gives the
 * server's options.
 */
export function setupServerTest(opts: { server?: boolean | ServerOptions } = {}): ServerTest {
  let tdb: TestDatabase | undefined;
  let server: TestServer | undefined;
  const extra: TestServer[] = [];
  let skipCheck = false;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    if (opts.server !== false) server = await startServer(tdb.db, typeof opts.server === "object" ? opts.server : {});
  });
  afterEach(async () => {
    const skipped = skipCheck;
    skipCheck = false;
    if (!tdb || skipped) return;
    await expectLedgerHealthy(tdb.db);
  });
  afterAll(async () => {
    await Promise.all(extra.map((s) => s.close()));
    await server?.close();
    await tdb?.drop();
  });

  const started = <T>(what: string, v: T | undefined): T => {
    if (v === undefined) throw new Error(`setupServerTest: the ${what} is there only once beforeAll has run`);
    return v;
  };
  return {
    get tdb() {
      return started("database", tdb);
    },
    get db() {
      return started("database", tdb).db;
    },
    get server() {
      return started("server", server);
    },
    async startServer(o = {}) {
      const s = await startServer(started("database", tdb).db, o);
      extra.push(s);
      return s;
    },
    allowLedgerViolations() {
      skipCheck = true;
    },
  };
}

/** The ledger's invariants hold on `db` (services/ledger/ledger.ts `ledgerViolations`): the check run after every server test. */
export async function expectLedgerHealthy(db: Db): Promise<void> {
  expect(await ledgerViolations(db), "the ledger's invariants after this test").toEqual([]);
}
