import { describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { toastText } from "./support/browser";
import { signedIn, useSuite } from "./support/suite";
import { motionSettled } from "./support/screen-checks";
import { startPayment } from "./pages/payments";

/**
 * Menus and toasts on the 360×740 touch phone: a menu floats above the page instead of
 * pushing it down, closes on Escape and on a tap outside, gives the focus back to its button, and
 * is gone before the dialog of its item opens; a toast stays readable (and usable) above an open
 * dialog, and none outlives the session that raised it.
 */
const suite = useSuite();
const phone = { phone: true } as const;

const isFocused = (l: Locator) => l.evaluate((el) => el === document.activeElement);
/** Whether `l` is what a tap at its own centre would hit: nothing (a backdrop, a dialog) covers it. */
const onTop = (l: Locator) =>
  l.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && el.contains(hit);
  });
const openPopovers = (page: Page) => page.evaluate(() => document.querySelectorAll(":popover-open").length);

/** Waits until `l` has stopped moving (a toast slides in) and is on the screen. */
async function settled(l: Locator) {
  let last = "";
  for (;;) {
    const b = await l.boundingBox();
    const now = JSON.stringify(b);
    if (b && b.y >= 0 && now === last) return;
    last = now;
    await l.page().waitForTimeout(100);
  }
}

/** A tap at the centre of `l` where it is on screen, whatever covers it (a menu's backdrop does). */
async function tapAt(page: Page, l: Locator) {
  const b = (await l.boundingBox())!;
  await page.touchscreen.tap(b.x + b.width / 2, b.y + b.height / 2);
}

describe("menus on a phone", () => {
  it("the account actions menu floats above the page, closes on Escape and on a tap outside, and is gone when its item's dialog opens", async () => {
    const { page, context, errors } = await signedIn(suite, "alice@example.com", undefined, phone);
    const transactions = page.getByRole("heading", { name: "Recent activity" });
    const trigger = page.getByRole("button", { name: "Account actions" });
    // Measured once the dashboard has loaded (the accounts, then her waiting top-up, come in late).
    await page.waitForLoadState("networkidle");
    await trigger.waitFor();
    await settled(transactions);
    const before = await transactions.boundingBox();

    await trigger.tap();
    await page.locator(".accounts").getByText("QR code").waitFor();
    // Nothing on the page moved: the menu is not laid out in the page's flow.
    expect(await transactions.boundingBox()).toEqual(before);
    const menu = page.getByRole("menu", { name: "Account actions" });
    await menu.waitFor();
    // Where it comes to rest (it slides up as a sheet).
    await motionSettled(page);
    await expect.poll(() => trigger.getAttribute("aria-expanded")).toBe("true");
    const items = menu.getByRole("menuitem");
    expect(await items.allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining("Reconversion"), expect.stringContaining("QR code")]));
    // All of it on the screen, above the dashboard's fixed footer.
    const box = (await menu.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(360);
    expect(box.y + box.height).toBeLessThanOrEqual(740);
    expect(await onTop(items.last())).toBe(true);

    // Escape closes it and the focus is back on ⋮.
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "hidden" });
    await expect.poll(() => trigger.getAttribute("aria-expanded")).toBe("false");
    await expect.poll(() => isFocused(trigger)).toBe(true);

    // From the keyboard: the first item takes the focus, arrows move it round, Tab leaves.
    await page.keyboard.press("Enter");
    await menu.waitFor();
    await expect.poll(() => isFocused(items.first())).toBe(true);
    await page.keyboard.press("ArrowDown");
    expect(await isFocused(items.nth(1))).toBe(true);
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    expect(await isFocused(items.last())).toBe(true);
    await page.keyboard.press("ArrowDown");
    expect(await isFocused(items.first())).toBe(true);
    await page.keyboard.press("End");
    expect(await isFocused(items.last())).toBe(true);
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "hidden" });
    await expect.poll(() => isFocused(trigger)).toBe(true);

    // A tap outside closes it, and does nothing else.
    await trigger.tap();
    await menu.waitFor();
    await tapAt(page, page.getByRole("heading", { name: "Your accounts" }));
    await menu.waitFor({ state: "hidden" });
    expect(await page.getByRole("dialog").count()).toBe(0);
    expect(await transactions.boundingBox()).toEqual(before);

    // Choosing an item closes the menu before its dialog opens; closing the dialog gives the focus back to ⋮.
    await trigger.tap();
    await menu.getByRole("menuitem", { name: "QR code" }).tap();
    const dialog = page.getByRole("dialog", { name: "QR code" });
    await dialog.waitFor();
    expect(await menu.isVisible()).toBe(false);
    expect(await openPopovers(page)).toBe(0);
    expect(await onTop(dialog.getByRole("heading", { name: "QR code" }))).toBe(true);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    await expect.poll(() => isFocused(trigger)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the bottom bar's Menu opens the user menu as a sheet: it does not push the page, closes on Escape and on a tap outside, and is gone when About opens", async () => {
    const { page, context, errors } = await signedIn(suite, "alice@example.com", undefined, phone);
    const bar = page.getByRole("navigation", { name: "Shortcuts" });
    const trigger = bar.getByRole("button", { name: "Menu" });
    const home = bar.getByRole("link", { name: "Home" });
    await home.waitFor();
    // Where the bar's buttons are, the thumb's: at the bottom of the screen, on top of the page.
    const barBox = (await bar.boundingBox())!;
    expect(barBox.y + barBox.height).toBeCloseTo(740, 0);
    await expect.poll(() => home.getAttribute("aria-current")).toBe("page");
    const transactions = page.getByRole("heading", { name: "Recent activity" });
    await page.waitForLoadState("networkidle");
    await settled(transactions);
    const transactionsBefore = await transactions.boundingBox();

    await trigger.tap();
    const menu = page.getByRole("menu", { name: "Alice Martin" });
    await menu.waitFor();
    await motionSettled(page);
    await expect.poll(() => trigger.getAttribute("aria-expanded")).toBe("true");
    expect(await transactions.boundingBox()).toEqual(transactionsBefore);
    const box = (await menu.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(740);
    expect(await onTop(menu.getByRole("menuitem", { name: "Sign out" }))).toBe(true);
    // Its entries load as it first opens: the first takes the focus all the same, and each has its icon.
    await expect.poll(() => isFocused(menu.getByRole("menuitem").first())).toBe(true);
    expect(await menu.locator('[role="menuitem"]:not(:has(svg.icon))').count()).toBe(0);

    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "hidden" });
    await expect.poll(() => isFocused(trigger)).toBe(true);

    await trigger.tap();
    await menu.waitFor();
    await tapAt(page, page.getByRole("heading", { name: "Your accounts" }));
    await menu.waitFor({ state: "hidden" });

    await trigger.tap();
    await menu.getByRole("menuitem", { name: "About Demo Lokal" }).tap();
    const about = page.getByRole("dialog", { name: "About Demo Lokal" });
    await about.waitFor();
    expect(await openPopovers(page)).toBe(0);
    expect(await onTop(about.getByRole("button", { name: "Close", exact: true }))).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** Bob's payment to Alice up to its review, with the Send money dialog open. */
async function reviewPayment(page: Page, amount: string) {
  const step2 = await startPayment(page, "alice", "Alice Martin", amount);
  await step2.getByRole("button", { name: "Send", exact: true }).tap();
  await step2.getByRole("button", { name: "Confirm and send" }).waitFor();
  return step2;
}

describe("toasts on a phone", () => {
  it("a toast raised while a dialog is open is above it: readable, and its close button works", async () => {
    const { page, context, errors } = await signedIn(suite, "bob@example.com", undefined, phone);
    const dialog = await reviewPayment(page, "1.00");
    await page.route("**/api/transfers", (route) =>
      route.fulfill({ status: 500, json: { error: { code: "internal_error", message: "An unexpected error occurred on the server." } } }),
    );
    await dialog.getByRole("button", { name: "Confirm and send" }).tap();
    const message = "An unexpected issue occurred during the money transfer.";
    await toastText(page, message);
    const toast = page.locator("[data-sonner-toast]").filter({ hasText: message });
    expect(await dialog.isVisible()).toBe(true);
    await settled(toast);
    expect(await onTop(toast)).toBe(true);
    // Not only seen: it can be closed without closing the dialog.
    await toast.getByRole("button", { name: "Close toast" }).tap();
    await toast.waitFor({ state: "detached" });
    expect(await dialog.isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("signing out dismisses every toast: none is left after signing in again", async () => {
    const { page, context, errors } = await signedIn(suite, "bob@example.com", undefined, phone);
    const dialog = await reviewPayment(page, "1.00");
    // The payment goes through but no answer ever comes: the warning stays until it is dismissed.
    await page.route("**/api/transfers", async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      await route.fetch();
      await route.abort("connectionreset");
    });
    await dialog.getByRole("button", { name: "Confirm and send" }).tap();
    const message = "The transaction was sent but no confirmation was received.";
    await toastText(page, message);
    await dialog.waitFor({ state: "hidden" });
    await page.unroute("**/api/transfers");

    // The sticky toast covers the top of the screen: the navigation is reached from the keyboard.
    await page.getByRole("navigation", { name: "Shortcuts" }).getByRole("button", { name: "Menu" }).press("Enter");
    await page.locator(".navbar").getByText("Sign out").tap();
    await page.waitForURL(`${suite.server.url}/`);
    await page.locator("[data-sonner-toast]").first().waitFor({ state: "detached", timeout: 5000 });

    await page.getByLabel("Password", { exact: true }).fill("Demo1234!");
    await page.getByRole("button", { name: "Sign in" }).tap();
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await page.getByRole("heading", { name: "Recent activity" }).waitFor();
    expect(await page.locator("[data-sonner-toast]").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
