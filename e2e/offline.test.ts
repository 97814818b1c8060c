import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { newPage, toastText } from "./support/browser";
import { useSuite } from "./support/suite";
import { signInButton, signInToDashboard, signOut } from "./pages/members";

/**
 * Installable and offline: a manifest that follows config.json, a service worker that
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
    const { page, context, errors } = await newPage(suite.browser, { serviceWorkers: "allow" });
    await page.goto(`${suite.server.url}/`);
    const href = await page.locator('link[rel="manifest"]').getAttribute("href");
    const manifest = await (await page.request.get(`${suite.server.url}${href}`)).json();
    expect(manifest).toMatchObject({ name: "Demo Lokal", display: "standalone", start_url: "/" });
    await controlled(page);
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${suite.server.url}/sw.js`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("starts offline from the app shell, says so, and allows no sign-in until the connection is back", async () => {
    const { page, context } = await newPage(suite.browser, { serviceWorkers: "allow" });
    await page.goto(`${suite.server.url}/`);
    await controlled(page);
    await context.setOffline(true);
    await page.reload();
    await signInButton(page).waitFor();
    await page.getByText(banner).waitFor();
    expect(await signInButton(page).isDisabled()).toBe(true);
    await context.setOffline(false);
    await page.getByText(banner).waitFor({ state: "hidden" });
    expect(await signInButton(page).isDisabled()).toBe(false);
    await context.close();
  });

  it("keeps a signed-in member's accounts in view offline, read-only", async () => {
    const { page, context } = await newPage(suite.browser, { serviceWorkers: "allow" });
    await signInToDashboard(page, suite.server.url, "alice@example.com");
    await page.getByRole("heading", { name: "Recent activity" }).waitFor();
    await context.setOffline(true);
    await page.getByText(banner).waitFor();
    for (const name of ["Pay", "Request", "Top up"]) expect(await page.getByRole("button", { name, exact: true }).isDisabled()).toBe(true);
    await page.getByText("Main account").first().waitFor();
    await context.setOffline(false);
    await page.getByText(banner).waitFor({ state: "hidden" });
    expect(await page.getByRole("button", { name: "Pay", exact: true }).isDisabled()).toBe(false);
    await context.close();
  });

  it("starts offline on the last known accounts and transactions, read-only, and forgets them on sign-out", async () => {
    const { page, context, errors } = await newPage(suite.browser, { serviceWorkers: "allow" });
    await signInToDashboard(page, suite.server.url, "alice@example.com");
    await controlled(page);
    const firstTx = page.locator(".tx-list li").first();
    await firstTx.waitFor();
    const txText = (await firstTx.innerText()).trim();
    const balance = (
      await page
        .locator(".accounts")
        .getByText(/\d,\d\d|\d\.\d\d/)
        .first()
        .innerText()
    ).trim();
    const kept = () => page.evaluate(() => localStorage.getItem("mutua.offlineCache") ?? "");
    await expect.poll(kept).toContain("recent");

    // The app is closed, the phone loses its connection, the app is opened again (on a clock the
    // test can move on, for the last check below).
    await context.clock.install();
    const again = await context.newPage();
    await page.close();
    await context.setOffline(true);
    await again.goto(`${suite.server.url}/dashboard`);
    await again.getByText(banner).waitFor();
    await again.getByText("Main account").first().waitFor();
    await again.locator(".accounts").getByText(balance).first().waitFor();
    expect((await again.locator(".tx-list li").first().innerText()).trim()).toBe(txText);
    for (const name of ["Pay", "Request", "Top up"]) expect(await again.getByRole("button", { name, exact: true }).isDisabled()).toBe(true);
    expect(again.url()).toBe(`${suite.server.url}/dashboard`);

    // Back online: the same screen, live again.
    await context.setOffline(false);
    await again.getByText(banner).waitFor({ state: "hidden" });
    await again.getByRole("button", { name: "Pay", exact: true }).waitFor({ state: "visible" });
    expect(await again.getByRole("button", { name: "Pay", exact: true }).isDisabled()).toBe(false);

    // Signing out leaves none of the member's data on the device: an offline start shows the login page.
    await signOut(again, "Alice Martin");
    // No write after sign-out: the cache is written at most once a second (the storage persister's
    // throttle), so a write scheduled before the sign-out would land within that second. The page's
    // clock is moved on past it, firing every timer due, instead of waiting for it.
    await again.clock.runFor(1500);
    expect(await again.evaluate(() => localStorage.getItem("mutua.offlineCache"))).toBeNull();
    await context.setOffline(true);
    await again.goto(`${suite.server.url}/dashboard`);
    await again.waitForURL(`${suite.server.url}/carto`);
    expect(await again.evaluate(() => localStorage.getItem("mutua.offlineCache"))).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("offers to reload when a new version is deployed, and reloads only when asked", async () => {
    const { page, context } = await newPage(suite.browser, { serviceWorkers: "allow" });
    await page.goto(`${suite.server.url}/`);
    await controlled(page);
    // A new deployment: the service worker script changes.
    fs.appendFileSync(path.join(WEB, "sw.js"), "\n// new version\n");
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
    await toastText(page, "A new version of the app is available.");
    await page.evaluate(() => ((window as unknown as { beforeReload: boolean }).beforeReload = true));
    await page.locator("[data-sonner-toast]").getByRole("button", { name: "Reload" }).click();
    await page.waitForFunction(() => !(window as unknown as { beforeReload?: boolean }).beforeReload);
    await signInButton(page).waitFor();
    await context.close();
  });
});
