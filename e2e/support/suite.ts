import { afterAll, beforeAll } from "vitest";
import type { Browser } from "playwright-core";
import { launchBrowser } from "./browser";
import { startServer, type RunningServer } from "./server";

/**
 * One real server (demo association, embedded PostgreSQL) and one Chromium per test file.
 * `env` is read when the suite starts, so it may name things other hooks set up first.
 */
export function useSuite(env: () => Record<string, string> = () => ({})): { server: RunningServer; browser: Browser } {
  const suite = {} as { server: RunningServer; browser: Browser };
  beforeAll(async () => {
    [suite.server, suite.browser] = await Promise.all([startServer(env()), launchBrowser()]);
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
    suite.server?.cleanup();
  });
  return suite;
}
