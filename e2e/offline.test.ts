import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { newPage, signIn, toastText } from "./support/browser";
import { useSuite } from "./support/suite";

/**
 * Installable and offline (issue 8): a manifest that follows config.json, a service worker that
 * keeps the app shell, an offline banner with every action disabled (nothing is queued), and a
 * prompt to reload when a new version is deployed. The server serves a copy of the built app so
 * the test can deploy a "new version" of it.
 */
const WEB = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-e2e-web-"));
fs.cpSync(path.resolve(import.meta.dirname, "../apps/web/dist"), WEB, { recursive: true });
const suite = useSuite(() => ({ WEB_DIR: WEB }));

/** Waits until a service worker controls the page (the first visit installs it; a reload puts it in charge). */
async function controlled(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  if (!(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)))) {
    await page.reload();
    await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller));
  }
}

const banner = "You are offline: what you see may be out of date, and nothing can be sent until the connection is back.";

describe("installable and offline", () => {
  it("has a manifest from the association's config, and a service worker in charge", async () => {
    const { page, context, errors } = await newPage(suite.browser);
    await page.goto(`${suite.server.url}/`);
    const href = await page.locator('link[rel="manifest"]').getAttribute("href");
    const manifest = await (await page.request.get(`${suite.server.url}${href}`)).json();
    expect(manifest).toMatchObject({ name: "Mutua", display: "standalone", start_url: "/" });
    await controlled(page);
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${suite.server.url}/sw.js`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("starts offline from the app shell, says so, and allows no sign-in until the connection is back", async () => {
    const { page, context } = await newPage(suite.browser);
    await page.goto(`${suite.server.url}/`);
    await controlled(page);
    await context.setOffline(true);
    await page.reload();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    await page.getByText(banner).waitFor();
    expect(await page.getByRole("button", { name: "Sign in" }).isDisabled()).toBe(true);
    await context.setOffline(false);
    await page.getByText(banner).waitFor({ state: "hidden" });
    expect(await page.getByRole("button", { name: "Sign in" }).isDisabled()).toBe(false);
    await context.close();
  });

  it("keeps a signed-in member's accounts in view offline, read-only", async () => {
    const { page, context } = await newPage(suite.browser);
    await signIn(page, suite.server.url, "alice@example.com", "Demo1234!");
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await page.getByRole("heading", { name: "Transactions" }).waitFor();
    await context.setOffline(true);
    await page.getByText(banner).waitFor();
    for (const name of ["Pay", "Request", "Top up"]) expect(await page.getByRole("button", { name, exact: true }).isDisabled()).toBe(true);
    await page.getByText("Main account").first().waitFor();
    await context.setOffline(false);
    await page.getByText(banner).waitFor({ state: "hidden" });
    expect(await page.getByRole("button", { name: "Pay", exact: true }).isDisabled()).toBe(false);
    await context.close();
  });

  it("offers to reload when a new version is deployed, and reloads only when asked", async () => {
    const { page, context } = await newPage(suite.browser);
    await page.goto(`${suite.server.url}/`);
    await controlled(page);
    // A new deployment: the service worker script changes.
    fs.appendFileSync(path.join(WEB, "sw.js"), "\n// new version\n");
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
    await toastText(page, "A new version of the app is available.");
    await page.evaluate(() => ((window as unknown as { beforeReload: boolean }).beforeReload = true));
    await page.locator("[data-sonner-toast]").getByRole("button", { name: "Reload" }).click();
    await page.waitForFunction(() => !(window as unknown as { beforeReload?: boolean }).beforeReload);
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    await context.close();
  });
});
