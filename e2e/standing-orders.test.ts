import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, newPage, toastText } from "./support/browser";
import { startServerWithMovableClock, type MovableClockServer } from "./support/movable-clock";
import { layoutProblems } from "./support/screen-checks";
import { english, french, openFromMenu, openScreen, signInWords, type Words } from "./pages/app";
import { signIn } from "./pages/members";
import { recentTransaction } from "./pages/history";

/**
 * Standing orders as a member uses them, on a phone (360×740) in English, then one look in French:
 * Bob (a custodial wallet) sets up a monthly payment to a shop of the demo (Le Fournil du Lac, run
 * by Louise Boulanger) from the user menu, confirms it with his password, and on its day (the
 * server's and its database's clock moved there) the server pays it: Bob sees it in his history
 * and the next month's date on the order. The server looks for due work every second.
 */
const SCREENS = path.resolve(import.meta.dirname, "../test-results/screens");
fs.mkdirSync(SCREENS, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENS, `standing-orders-${name}.png`) });
const ZONE = "Europe/Paris";
/** A Wednesday morning in Paris; the order's first day is the Monday after. */
const SET_UP_AT = new Date("2027-03-10T09:00:00Z");
const FIRST_DAY = "2027-03-15";
const ON_ITS_DAY = new Date("2027-03-15T09:00:00Z");
const day = (date: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" }).format(new Date(`${date}T00:00:00Z`));

let server: MovableClockServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServerWithMovableClock(SET_UP_AT, { DUE_POLL_SECONDS: "1" }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  server?.cleanup();
});

/** Bob's phone in Paris, its clock reading the server's, signed in, on his dashboard. */
async function bobsPhone(locale: string, t: Words, at: Date) {
  const s = await newPage(browser, { phone: true, locale, timezoneId: ZONE });
  await s.context.clock.install({ time: at });
  await signIn(s.page, server.url, "bob@example.com", "Demo1234!", signInWords(t));
  await s.page.waitForURL((u) => u.pathname === "/dashboard");
  return s;
}

describe("standing orders", () => {
  it("360×740 en-US: Bob sets up a monthly payment to a shop, confirmed with his password; on its day it is paid, in his history, and the order says the next month's date", async () => {
    const { page, context, errors } = await bobsPhone("en-US", english, SET_UP_AT);
    const way = { phone: true, t: english };
    await openFromMenu(page, "Bob Durand", "Standing orders", way);
    await page.getByText("No standing orders yet").waitFor();
    await shot(page, "360-en-US-empty");

    await page.getByRole("link", { name: "New standing order" }).tap();
    await page.getByRole("heading", { level: 1, name: /New standing order/ }).waitFor();
    // The send flow's payee picker, its search field in hand.
    const search = page.getByRole("searchbox");
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true);
    await search.fill("Louise");
    // The picker shortens a long name ("Louise Boulange…"); its title says it whole.
    await page
      .getByRole("button", { name: /^Louise Boulange/ })
      .first()
      .tap();

    const amount = page.getByLabel("Amount", { exact: true });
    await amount.waitFor();
    expect(await amount.evaluate((el) => el === document.activeElement)).toBe(true);
    await amount.fill("12.50");
    await page.getByLabel("Memo", { exact: true }).fill("Weekly bread");
    expect(await page.getByRole("radio", { name: "Every month" }).isChecked()).toBe(true);
    await page.getByLabel("First payment date").fill(FIRST_DAY);
    await page.getByLabel("If a payment is refused").selectOption({ label: "Try again the next day, once" });
    await shot(page, "360-en-US-details");
    expect(await layoutProblems(page)).toEqual([]);
    await page.getByRole("button", { name: "Continue" }).tap();

    await page.getByRole("heading", { name: "Review the standing order" }).waitFor();
    await page.getByText("Confirm with your password or PIN").waitFor();
    await shot(page, "360-en-US-review");
    expect(await layoutProblems(page)).toEqual([]);
    await page.getByRole("button", { name: "Set up the standing order" }).tap();

    // Custodial: the server pays without Bob, so he confirms once, here; a wrong password is said in the dialog.
    const auth = page.getByRole("dialog", { name: "Authentication" });
    await auth.getByLabel("Your account password").fill("not his password");
    await auth.getByRole("button", { name: "Confirm" }).tap();
    await auth.getByText("Failed authentication").waitFor();
    await auth.getByLabel("Your account password").fill("Demo1234!");
    await shot(page, "360-en-US-password");
    await auth.getByRole("button", { name: "Confirm" }).tap();
    await toastText(page, "Standing order set up");

    // The order's page: whom, how much, how often, and its first day.
    await page.getByRole("heading", { level: 1, name: "Louise Boulanger" }).waitFor();
    const next = page.locator(".so-next");
    expect(await next.innerText()).toBe(day(FIRST_DAY, "en-US"));
    await page.getByText("12.50 DL").first().waitFor();
    await page.getByText("Every month").first().waitFor();
    await shot(page, "360-en-US-order");
    // The toast sits over the top of the screen a few seconds, then leaves it whole.
    await page.locator("[data-sonner-toast]").first().waitFor({ state: "detached", timeout: 15_000 });
    expect(await layoutProblems(page)).toEqual([]);

    // Its day comes: the server (every second) pays it, and the order moves to the next month.
    await server.moveTo(ON_ITS_DAY);
    await context.clock.setSystemTime(ON_ITS_DAY);
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByRole("heading", { level: 1, name: "Louise Boulanger" }).waitFor();
          return page.locator(".so-next").innerText();
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe(day("2027-04-15", "en-US"));
    await page
      .locator(".so-run")
      .filter({ hasText: "Paid" })
      .filter({ hasText: day(FIRST_DAY, "en-US") })
      .waitFor();
    await shot(page, "360-en-US-paid");

    // In the list: the next date, and in his history: the payment with the order's memo.
    await openScreen(page, "/standing-orders", "Standing orders");
    const row = page.locator(".so-row").filter({ hasText: "Louise Boulanger" });
    await row.getByText(`Every month · Next: ${day("2027-04-15", "en-US")}`).waitFor();
    await openScreen(page, "/dashboard", "Dashboard");
    const tx = recentTransaction(page, "Weekly bread");
    await tx.waitFor();
    expect(await tx.innerText()).toContain("12.50");
    await shot(page, "360-en-US-history");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("360×740 fr-FR: the list and the order say it in French and fit; Bob pauses, resumes, changes and cancels it", async () => {
    const { page, context, errors } = await bobsPhone("fr-FR", french, ON_ITS_DAY);
    await openFromMenu(page, "Bob Durand", "Standing orders", { phone: true, t: french });
    const row = page.locator(".so-row").filter({ hasText: "Louise Boulanger" });
    await row.getByText(french("Every month")).waitFor();
    await shot(page, "360-fr-FR-list");
    expect(await layoutProblems(page)).toEqual([]);
    await row.getByRole("link").tap();
    await page.getByRole("heading", { level: 1, name: "Louise Boulanger" }).waitFor();
    await page.getByRole("button", { name: french("Pause") }).waitFor();
    await page.getByText(french("Try again the next day, once")).waitFor();
    await shot(page, "360-fr-FR-order");
    expect(await layoutProblems(page)).toEqual([]);

    // Paused, then resumed on the same button, the hand still on it; a new amount; cancelled after its question.
    const hold = page.getByRole("button", { name: french("Pause") });
    await hold.tap();
    await toastText(page, french("Standing order paused: nothing is paid until you resume it"));
    const resume = page.getByRole("button", { name: french("Resume") });
    expect(await resume.evaluate((el) => el === document.activeElement)).toBe(true);
    await resume.tap();
    await toastText(page, french("Standing order resumed: next payment on {date}", { date: day("2027-04-15", "fr-FR") }));
    await page.getByRole("button", { name: french("Change") }).tap();
    const change = page.getByRole("dialog", { name: french("Change the standing order") });
    await change.getByLabel(french("Amount"), { exact: true }).fill("15");
    await shot(page, "360-fr-FR-change");
    expect(await layoutProblems(page)).toEqual([]);
    await change.getByRole("button", { name: french("Save") }).tap();
    await toastText(page, french("Standing order changed"));
    await page.getByText("15,00 DL").first().waitFor();
    await page.getByRole("button", { name: french("Cancel the order") }).tap();
    const question = page.getByRole("dialog", { name: french("Cancel this standing order?") });
    await shot(page, "360-fr-FR-cancel");
    expect(await layoutProblems(page)).toEqual([]);
    await question.getByRole("button", { name: french("Cancel the order") }).tap();
    await toastText(page, french("Standing order cancelled: nothing more will be paid"));
    await page.locator(".so-when .badge").getByText(french("Cancelled")).waitFor();
    expect(await page.getByRole("button", { name: french("Pause") }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
