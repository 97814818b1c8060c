import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { newPage } from "./support/browser";
import { signedIn, useSuite } from "./support/suite";
import { accountCard, openAccountActions, openHelp, shortcuts, tapShortcut } from "./pages/dashboard";
import { french, signInWords } from "./pages/app";
import { DEMO_PASSWORD, signInToDashboard } from "./pages/members";
import { askMembers, askPart } from "./pages/asks";
import { historyDialog } from "./pages/history";
import { scanner } from "./pages/qr";
import { tillShown } from "./pages/till";

/**
 * The dashboard and the bottom bar on a 360×740 touch phone, as a member opening the app sees
 * them: one large balance, the other accounts a swipe or a tap away, what to do with the money
 * under it and the latest movements above the fold; Home, History, Scan, Receive and Menu one
 * tap away on every screen.
 */
const suite = useSuite();
const SCREENS = path.resolve(import.meta.dirname, "../test-results/screens");
const HEIGHT = 740;
const box = async (l: Locator) => (await l.boundingBox())!;
const shot = async (page: Page, name: string) => {
  fs.mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS, `${name}-360x740.png`) });
};

describe("the dashboard on a phone", () => {
  it("shows one large balance, the next account one tap away, Pay, Request, Scan and Top up in round buttons, and the latest activity above the fold", async () => {
    const { page, context, errors } = await signedIn(suite, "alice@example.com", "Demo1234!", { phone: true });
    const bar = shortcuts(page);
    const main = accountCard(page, "Main account");
    const signed = accountCard(page, "Demo Lokal · signed wallet");
    await main.waitFor();
    await page.locator(".tx-list li").first().waitFor();
    await shot(page, "dashboard-first-screen");

    // The main account is the one shown, in large type, whole on the screen.
    expect(await main.getAttribute("aria-pressed")).toBe("true");
    const big = await main.locator(".amount").evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(big).toBeGreaterThanOrEqual(40);
    const mainBox = await box(main);
    expect(mainBox.x).toBeGreaterThanOrEqual(0);
    expect(mainBox.x + mainBox.width).toBeLessThanOrEqual(360);
    // The next one peeks in from the side; a tap brings it whole, and the movements follow it.
    const peek = await box(signed);
    expect(peek.x).toBeLessThan(360);
    expect(peek.x + peek.width).toBeGreaterThan(360);
    await signed.tap();
    await expect.poll(() => signed.getAttribute("aria-pressed")).toBe("true");
    await expect.poll(async () => (await box(signed)).x + (await box(signed)).width).toBeLessThanOrEqual(360);
    await page.locator(".transactions").getByText("Demo Lokal · signed wallet").waitFor();

    // A word new to most members comes with a "?" that says what it means, and goes on Escape.
    const help = await openHelp(page, "What is a signed wallet?");
    await help.getByText(/^A signed wallet's key stays on your device/).waitFor();
    await shot(page, "help-signed-wallet");
    const helpBox = await box(help);
    expect(helpBox.y + helpBox.height).toBeLessThanOrEqual(HEIGHT);
    await page.keyboard.press("Escape");
    await help.waitFor({ state: "hidden" });
    await accountCard(page, "Pledged account").tap();
    await (await openHelp(page, "What is a pledged account?")).getByText(/backed by euros/).waitFor();
    await page.keyboard.press("Escape");
    // Mutual credit says under its balance what may still be spent, and how far below zero it may go
    // (the demo's floor is 100.00 DL), on its card's two lines, the card no taller than the others.
    const credit = accountCard(page, "Mutual credit");
    await credit.tap();
    const balance = Number((await credit.locator(".amount").innerText()).replace(/[^\d.-]/g, ""));
    await credit.getByText(`Available ${(balance + 100).toFixed(2)} DL`).waitFor();
    await credit.getByText("You may owe up to 100.00 DL").waitFor();
    expect((await box(credit)).height).toBe((await box(main)).height);
    await shot(page, "dashboard-mutual-credit");
    await main.tap();

    // What to do with the money, and the latest movement, above the bottom bar without scrolling.
    const barTop = (await box(bar)).y;
    expect(barTop + (await box(bar)).height).toBeCloseTo(HEIGHT, 0);
    for (const name of ["Pay", "Request", "Scan", "Top up"]) {
      const b = await box(page.locator(".money-actions").getByRole("button", { name, exact: true }));
      expect(b.y + b.height, name).toBeLessThanOrEqual(barTop);
    }
    // Alice's latest activity is her top-up awaiting validation: it heads the movements, in view.
    const latest = await box(page.locator(".transactions").getByText("Awaiting validation"));
    expect(latest.y + latest.height).toBeLessThanOrEqual(barTop);

    // Uploading a wallet file is out of the first screen, in the wallet's menu.
    expect(await page.getByRole("button", { name: "Upload wallet file..." }).count()).toBe(0);
    await openAccountActions(page);
    await page.getByRole("menuitem", { name: "Upload wallet file..." }).waitFor();
    await page.keyboard.press("Escape");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("with her own ask waiting and a top-up awaiting validation, Alice's latest movement is still on the first screen; in French the actions' labels stay inside their buttons", async () => {
    const alice = await signedIn(suite, "alice@example.com", "Demo1234!", { phone: true });
    const ask = await askMembers(alice.page, [["durand", "Bob Durand"]], "2", "Bread");
    await ask.getByRole("button", { name: "Ask", exact: true }).click();
    await askPart(alice.page, "Bob Durand", "You asked 2.00 DL · Bread").getByText("Waiting").waitFor();
    await alice.page.reload();
    const mine = alice.page.getByRole("region", { name: "Your requests for money" });
    await mine.waitFor();
    await alice.page.locator(".tx-list li").first().waitFor();
    const barTop = (await box(shortcuts(alice.page))).y;
    // The top-up awaiting validation and the latest movement head the page; her ask waits below them.
    for (const row of [alice.page.locator(".transactions").getByText("Awaiting validation"), alice.page.locator(".tx-list li").nth(1)]) {
      const b = await box(row);
      expect(b.y + b.height).toBeLessThanOrEqual(barTop);
    }
    expect((await box(mine)).y).toBeGreaterThan((await box(alice.page.locator(".tx-list li").nth(1))).y);
    await shot(alice.page, "dashboard-with-asks");
    await alice.context.close();

    const bob = await newPage(suite.browser, { phone: true, locale: "fr-FR" });
    await signInToDashboard(bob.page, suite.server.url, "bob@example.com", DEMO_PASSWORD, signInWords(french));
    const actions = bob.page.locator(".money-actions button");
    await bob.page.getByRole("button", { name: "Recharger", exact: true }).waitFor();
    const labels = await actions.evaluateAll((buttons) =>
      buttons.map((b) => ({ text: b.textContent, fits: b.scrollWidth <= b.clientWidth, right: b.getBoundingClientRect().right })),
    );
    expect(labels.map((l) => l.text)).toEqual(["Payer", "Demander", "Scanner", "Recharger"]);
    for (const l of labels) {
      expect(l.fits, l.text!).toBe(true);
      expect(l.right, l.text!).toBeLessThanOrEqual(360);
    }
    await shot(bob.page, "dashboard-actions-fr");
    await bob.context.close();

    // Alice's top-up awaiting validation: its chip on one line in French too.
    const frenchAlice = await newPage(suite.browser, { phone: true, locale: "fr-FR" });
    await signInToDashboard(frenchAlice.page, suite.server.url, "alice@example.com", DEMO_PASSWORD, signInWords(french));
    const chip = frenchAlice.page.locator(".transactions .status.paid");
    await chip.waitFor();
    const lines = await chip.evaluate((el) => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).fontSize));
    expect(lines).toBeLessThan(2);
    await frenchAlice.context.close();
  });

  it("the bottom bar: History has its address and back closes it; Scan opens the camera on a payment; Receive opens the till", async () => {
    const { page, context, errors } = await signedIn(suite, "bob@example.com", "Demo1234!", { phone: true });
    const bar = shortcuts(page);
    await bar.getByRole("link", { name: "Home" }).waitFor();
    await shot(page, "bottom-bar");

    await tapShortcut(page, "History");
    const history = historyDialog(page);
    await history.waitFor();
    expect(new URL(page.url()).search).toBe("?history");
    await page.goBack();
    await history.waitFor({ state: "detached" });
    expect(new URL(page.url()).pathname).toBe("/dashboard");
    expect(new URL(page.url()).search).toBe("");

    await tapShortcut(page, "Scan");
    const camera = scanner(page);
    await camera.waitFor();
    await camera.getByRole("button", { name: "Close" }).tap();
    // Closing the camera leaves the payment at its first step, to choose the recipient instead.
    await page.getByRole("dialog", { name: "Send money - 1/2" }).waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });

    await tapShortcut(page, "Receive");
    await tillShown(page);
    await expect.poll(() => bar.getByRole("link", { name: "Receive" }).getAttribute("aria-current")).toBe("page");
    await shot(page, "bottom-bar-receive");
    await tapShortcut(page, "Home");
    await page.waitForURL(`${suite.server.url}/dashboard`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a pressed movement is shaded; pulling the page down from its top and letting go refreshes the balances, a turning mark meanwhile; a short pull does not", async () => {
    const { page, context, errors } = await signedIn(suite, "bob@example.com", "Demo1234!", { phone: true });
    await accountCard(page, "Main account").waitFor();
    await page.locator(".tx-list li").first().waitFor();
    await page.waitForLoadState("networkidle");
    const cdp = await context.newCDPSession(page);
    /** A finger from (180, 200) down by `by` px, in steps, then lifted. */
    const pull = async (by: number) => {
      const at = (y: number) => [{ x: 180, y }];
      await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: at(200) });
      // The gesture's code comes with the first touch at the top: the finger moves once it is there.
      await page.waitForFunction(() => document.querySelector(".pull-mark") !== null);
      for (let y = 200; y <= 200 + by; y += 20) await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: at(y) });
      await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    };
    // A movement's row answers the finger at once: pressed, it is shaded.
    const row = page.locator(".tx-list .tx").first();
    const shade = () => row.evaluate((el) => getComputedStyle(el).backgroundColor);
    const idle = await shade();
    // (Below Bob's asks to answer, when an earlier test left him some.)
    await row.evaluate((el) => el.scrollIntoView({ block: "center" }));
    const rowBox = await box(row);
    // (A pointer held down on it, then taken off it before it is let go: nothing opens.)
    await page.mouse.move(rowBox.x + rowBox.width / 2, rowBox.y + rowBox.height / 2);
    await page.mouse.down();
    await expect.poll(shade).not.toBe(idle);
    await page.mouse.move(rowBox.x + rowBox.width / 2, 5);
    await page.mouse.up();
    await expect.poll(shade).toBe(idle);
    expect(await page.getByRole("dialog").count()).toBe(0);
    await page.evaluate(() => scrollTo(0, 0));
    await page.waitForFunction(() => scrollY === 0);

    const asked: string[] = [];
    page.on("request", (r) => new URL(r.url()).pathname === "/api/accounts" && asked.push(r.url()));

    // Held until the spinning mark has been seen.
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    await page.route("**/api/accounts", async (route) => {
      await held;
      await route.continue();
    });
    await pull(240);
    await page.locator(".pull-mark.spinning").waitFor();
    await shot(page, "pull-to-refresh");
    expect(asked).toHaveLength(1);
    answer();
    await page.locator(".pull-mark").waitFor({ state: "detached" });
    await page.unroute("**/api/accounts");

    // A short pull: the mark comes and goes, nothing is asked again.
    await pull(60);
    await page.locator(".pull-mark").waitFor({ state: "detached" });
    expect(asked).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("nothing on the first screen moves while it loads, whichever of the pending top-ups and the movements answers last", async () => {
    const { page, context, errors } = await signedIn(suite, "alice@example.com", "Demo1234!", { phone: true });
    await page.addInitScript(() => {
      const w = window as unknown as { shifts: { value: number; at: string[] }[] };
      w.shifts = [];
      new PerformanceObserver((list) => {
        // Every shift, those Chromium puts down to "recent input" too: this test gives none, and
        // a reload counts as one.
        for (const e of list.getEntries() as (PerformanceEntry & { value: number; sources: { node?: Node | null }[] })[])
          w.shifts.push({ value: e.value, at: e.sources.map((s) => (s.node instanceof Element ? s.node.className : String(s.node))) });
      }).observe({ type: "layout-shift", buffered: true });
    });
    const TOPUPS = "**/api/topups?*";
    const MOVEMENTS = "**/api/accounts/*/transactions?*";
    for (const [first, last] of [
      [MOVEMENTS, TOPUPS],
      [TOPUPS, MOVEMENTS],
    ] as const) {
      // A first visit on this device: no box height kept from an earlier one.
      await page.evaluate(() => localStorage.removeItem("mutua.layoutHints"));
      let answered!: () => void;
      const firstIn = new Promise<void>((resolve) => (answered = resolve));
      await page.route(first, async (route) => {
        await route.fulfill({ response: await route.fetch() });
        answered();
      });
      await page.route(last, async (route) => {
        await firstIn;
        // The first answer drawn (the page idle again), then the last one comes.
        await page.evaluate(() => new Promise((r) => requestIdleCallback(() => requestAnimationFrame(() => requestIdleCallback(r)))));
        await route.continue();
      });
      await page.reload();
      await page.locator(".transactions > .tx-list li").first().waitFor();
      await page.locator(".account-summary").waitFor();
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const shifts = await page.evaluate(() => (window as unknown as { shifts: { value: number; at: string[] }[] }).shifts);
      const total = shifts.reduce((sum, s) => sum + s.value, 0);
      expect(total, `${last} last: ${JSON.stringify(shifts)}`).toBeLessThan(0.01);
      await page.unrouteAll();
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});
