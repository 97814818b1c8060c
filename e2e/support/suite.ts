import { afterAll, beforeAll } from "vitest";
import type { Browser } from "playwright-core";
import { launchBrowser, newPage, signIn } from "./browser";
import { startServer, type RunningServer } from "./server";

/**
 * One real server (demo association, embedded PostgreSQL) and one Chromium per test file.
 * `env` is read when the suite starts, so it may name things other hooks set up first.
 */
export function useSuite(
  env: () => Record<string, string> = () => ({}),
  opts: { host?: string; fullBrowser?: boolean } = {},
): { server: RunningServer; browser: Browser } {
  const suite = {} as { server: RunningServer; browser: Browser };
  beforeAll(async () => {
    [suite.server, suite.browser] = await Promise.all([startServer(env(), { host: opts.host }), launchBrowser({ full: opts.fullBrowser })]);
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
    suite.server?.cleanup();
  });
  return suite;
}

/**
 * A fresh browser context signed in as `email` (demo password), on a loaded dashboard, or for an
 * administrator or board member without an account of their own, on the work they land on.
 */
export async function signedIn(
  suite: { server: RunningServer; browser: Browser },
  email: string,
  password = "Demo1234!",
  opts: Parameters<typeof newPage>[1] = {},
) {
  const s = await newPage(suite.browser, opts);
  await signIn(s.page, suite.server.url, email, password);
  await s.page.waitForURL((u) => u.pathname === "/dashboard" || u.pathname.startsWith("/admin"));
  await s.page.waitForFunction(() =>
    location.pathname.startsWith("/admin")
      ? document.querySelector("main h1") !== null
      : [...document.querySelectorAll("h2")].some((h) => h.textContent === "Recent activity"),
  );
  // Without an account of their own, an administrator or board member goes on to their work.
  await s.page.waitForFunction(
    () => location.pathname.startsWith("/admin") || document.querySelector(".accounts button.account, .accounts .next-step") !== null,
  );
  if (new URL(s.page.url()).pathname === "/dashboard" && (await s.page.locator(".accounts button.account").count()) === 0) {
    // Sent on only with a right to work on: asked of the server rather than waited for, as a
    // member with none stays on the dashboard.
    const rights = await s.page.evaluate(() => fetch("/api/me/rights").then((r) => r.json() as Promise<Record<string, boolean>>));
    if (Object.values(rights).some((right) => right === true)) {
      await s.page.waitForURL((u) => u.pathname.startsWith("/admin"));
      await s.page.waitForFunction(() => document.querySelector("main h1") !== null);
    }
  }
  return s;
}
