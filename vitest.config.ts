import fs from "node:fs";
import os from "node:os";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const WEB_TESTS = "apps/web/src/**/*.test.{ts,tsx}";
/** Testing Library's waits, sized for a loaded machine (apps/web/src/testing-setup.ts). */
const WEB_SETUP = "apps/web/src/testing-setup.ts";
/**
 * The app's test files that replace modules (vi.mock) or globals need a module registry of their
 * own; the others share their worker's loaded React, jsdom helpers and app modules, which spares
 * each file a second or more of imports.
 */
const WEB_REPLACING = fs.globSync(WEB_TESTS).filter((f) => /\bvi\.(mock|doMock|stubGlobal|resetModules)\(/.test(fs.readFileSync(f, "utf8")));

/**
 * The server's test files that never open a database (file parsing, the import's streaming, the
 * layers' imports): the PostgreSQL pass (TEST_PG_URL) has nothing to prove with them again. A file
 * counts as opening one when it uses the test server, a test database or their fixtures.
 */
const SERVER_TESTS = "apps/server/test/*.test.ts";
const OPENS_A_DATABASE = /from "\.\/(setup|payments-fixtures|federation-sides)"|createTestDatabase|startServer|TEST_PG_URL|embedded/;
const DATABASE_FREE = fs.globSync(SERVER_TESTS).filter((f) => !OPENS_A_DATABASE.test(fs.readFileSync(f, "utf8")));
/**
 * Generated bad input at every route: what the contract's schemas refuse, before any SQL runs, is
 * the same on any engine, and it is the server suite's longest file (a minute of CPU).
 */
const SCHEMA_ONLY = ["apps/server/test/fuzz.test.ts"];

/**
 * The screens tour first. Without timings of an earlier run (a fresh clone, CI), Vitest starts the
 * largest files first; the tour's two files are small (they call e2e/screens-tour.ts) but its two
 * longest halves, and started last they ran alone at the end of the run, two minutes more.
 */
class TourFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const tour = (f: TestSpecification) => (/[\\/]e2e[\\/]screens(-wide)?\.test\.ts$/.test(f.moduleId) ? 0 : 1);
    return (await super.sort(files)).sort((a, b) => tour(a) - tour(b));
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: TourFirst },
    // Vitest's default (one worker less than the cores) is one worker on a two-core machine, and
    // most of these files wait on a browser, a server or PostgreSQL rather than compute: one more
    // than the cores keeps them busy (three on two cut the run by about three minutes). The timing
    // faults three brought out were a stop hanging on an event stream's row (mended) and waits a
    // loaded machine overran (a camera's scan, a biometric switch, a menu press), which the e2e page
    // model now writes down and waits out (test-results/noticed/, printed at the end of the run).
    maxWorkers: os.availableParallelism() + 1,
    projects: [
      { test: { name: "domain", include: ["packages/domain/test/**/*.test.ts"], environment: "node" } },
      { test: { name: "wallet", include: ["packages/wallet/test/**/*.test.ts"], environment: "node", testTimeout: 60_000 } },
      { test: { name: "client", include: ["packages/client/test/**/*.test.ts"], environment: "node" } },
      // The docs checker: links, paths and npm scripts named in README.md and docs/*.md exist.
      { test: { name: "docs", include: ["scripts/**/*.test.ts"], environment: "node" } },
      {
        test: {
          name: "server",
          include: ["apps/server/test/**/*.test.ts"],
          exclude: ["apps/server/test/reliability/**", "apps/server/test/ha/**", ...(process.env.TEST_PG_URL ? [...DATABASE_FREE, ...SCHEMA_ONLY] : [])],
          environment: "node",
          globalSetup: ["apps/server/test/global-setup.ts"],
          // Passwords hashed at scrypt's N=2^12 (10 ms of CPU) rather than the default 2^16 (185
          // ms): the suite signs in thousands of times. The login bench measures the default.
          env: { PASSWORD_HASH_COST: "12" },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each file has its own database and servers (setup.ts) and keeps no state in modules,
          // so the files of one worker share the loaded app instead of importing it afresh each
          // time: about 5 s of a loaded two-core machine's CPU per file.
          isolate: false,
          // The Lokavaluto packages (apps/server/test/lokapi) ship ES modules in .js files of
          // packages without "type": "module", with extensionless and directory imports: Node
          // cannot load them as they are, Vite can.
          server: { deps: { inline: [/@lokavaluto\//, /@0k\//] } },
        },
      },
      {
        // Load and kill -9 runs: run by themselves (scripts/test.mjs), two files at a time.
        test: {
          name: "reliability",
          include: ["apps/server/test/reliability/**/*.test.ts"],
          environment: "node",
          globalSetup: ["apps/server/test/global-setup.ts"],
          testTimeout: 600_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The failover of a Patroni-managed PostgreSQL under load (`npm run test:ha`, scripts/test-ha.mjs):
        // etcd, two PostgreSQL nodes, HAProxy and two servers of its own, so run by itself.
        test: {
          name: "ha",
          include: ["apps/server/test/ha/**/*.test.ts"],
          environment: "node",
          testTimeout: 600_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      // Some run real key derivations (PINs, keystores), slow on a loaded two-core machine.
      {
        test: { name: "web", include: [WEB_TESTS], exclude: WEB_REPLACING, environment: "jsdom", testTimeout: 20_000, isolate: false, setupFiles: [WEB_SETUP] },
      },
      { test: { name: "web-isolated", include: WEB_REPLACING, environment: "jsdom", testTimeout: 20_000, setupFiles: [WEB_SETUP] } },
      {
        // Measurements that CPU contention would skew: run by themselves (scripts/test.mjs).
        test: {
          name: "budgets",
          include: ["e2e/budget.test.ts", "e2e/lighthouse.test.ts"],
          environment: "node",
          globalSetup: ["e2e/support/global-setup.ts"],
          testTimeout: 240_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["e2e/**/*.test.ts"],
          exclude: ["e2e/budget.test.ts", "e2e/lighthouse.test.ts"],
          environment: "node",
          globalSetup: ["e2e/support/global-setup.ts"],
          testTimeout: 90_000,
          hookTimeout: 180_000,
          // Each file starts its own server and browser; the files of a worker share the loaded
          // Playwright and support modules.
          isolate: false,
        },
      },
    ],
  },
});
