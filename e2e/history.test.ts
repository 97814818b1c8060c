import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Locator } from "playwright-core";
import { signedIn, useSuite } from "./support/suite";
import {
  filterByRecipient,
  downloadedRows,
  listSettles,
  openDatePicker,
  openHistory,
  recentTransaction,
  searchHistory,
  selectedDays,
  showFilters,
} from "./pages/history";
import { sendPayment, startPayment } from "./pages/payments";

/**
 * The history ("All transactions") on a 360×740 touch phone: the list first, the filters behind
 * one button; typed filters filter, the CSV holds exactly the rows shown, and the rows, filters and
 * calendar fit the screen.
 * Screenshots are kept in test-results/screens/ to look at.
 */
const suite = useSuite();
const OUT = path.resolve(import.meta.dirname, "../test-results/screens");

describe("the history on a phone", () => {
  it("filters by a recipient's name typed without picking a suggestion, and the CSV holds exactly the rows shown", async () => {
    const { page, context, errors } = await signedIn(suite, "alice@example.com", "Demo1234!", { phone: true });
    const modal = await openHistory(page);
    const all = await listSettles(modal, () => true);
    expect(all.some((r) => r[1] !== "Bob Durand")).toBe(true);

    await showFilters(modal);
    await filterByRecipient(modal, "durand");
    const bob = await listSettles(modal, (r) => r[1] === "Bob Durand");
    expect(bob.length).toBeGreaterThan(1);
    expect(bob.length).toBe(all.filter((r) => r[1] === "Bob Durand").length);

    expect(await downloadedRows(modal, "Alice Martin")).toEqual(bob);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("searches memos and amounts, and the CSV holds exactly the rows found", async () => {
    const { page, context, errors } = await signedIn(suite, "alice@example.com", "Demo1234!", { phone: true });
    const modal = await openHistory(page);
    await showFilters(modal);

    // A memo word, any case.
    await searchHistory(modal, "BREAD");
    const bread = await listSettles(modal, (r) => r[2] === "Bread");
    expect(bread).toEqual([["-8.20", "Bob Durand", "Bread"]]);
    expect(await downloadedRows(modal, "Alice Martin")).toEqual(bread);

    // An amount with a decimal comma, as a French member types it.
    await searchHistory(modal, "12,50");
    const basket = await listSettles(modal, (r) => r[0] === "-12.50");
    expect(basket).toEqual([["-12.50", "Bob Durand", "Vegetable basket"]]);
    expect(await downloadedRows(modal, "Alice Martin")).toEqual(basket);

    // Search and recipient together.
    await searchHistory(modal, "fire");
    await filterByRecipient(modal, "bob");
    const firewood = await listSettles(modal, (r) => r[2] === "Firewood");
    expect(firewood).toEqual([["45.00", "Bob Durand", "Firewood"]]);
    expect(await downloadedRows(modal, "Alice Martin")).toEqual(firewood);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows rows whose amount, name and date do not collide, filters inside the screen, and one day selected per tap", async () => {
    fs.mkdirSync(OUT, { recursive: true });
    // A memo as long as allowed, in one word: it must not push the amount or the date out of its row.
    const bob = await signedIn(suite, "bob@example.com", "Demo1234!", { phone: true });
    const send = await startPayment(bob.page, "martin", "Alice Martin", "123,45", "Invoice FR7630006000011234567890189");
    // Typed with a comma, sent as 123.45, and said to be today's.
    await (await sendPayment(bob.page, send, "123.45")).getByText(/^Today, /).waitFor();
    await bob.context.close();

    const { page, context, errors } = await signedIn(suite, "alice@example.com", "Demo1234!", { phone: true });
    // The dashboard's last transactions are the same rows: the long memo does not widen the page.
    await recentTransaction(page, "FR7630006000011234567890189").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const modal = await openHistory(page);
    await listSettles(modal, () => true);
    await page.screenshot({ path: path.join(OUT, "history-360x740.png") });

    const width = await page.evaluate(() => document.documentElement.clientWidth);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await showFilters(modal);
    for (const box of [
      modal.locator(".tx-filters"),
      modal.getByLabel("Recipient"),
      modal.getByRole("searchbox", { name: "Search" }),
      modal.locator(".period"),
    ]) {
      const b = (await box.boundingBox())!;
      expect(b.x, await box.evaluate((e) => e.className)).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width, await box.evaluate((e) => e.className)).toBeLessThanOrEqual(width);
    }

    // Within each row, the amount, the name, the memo and the date each have their own box.
    const overlaps = await modal.locator(".tx").evaluateAll((rows) => {
      const found: string[] = [];
      for (const row of rows) {
        const parts = [".tx-amount", ".tx-related", ".tx-memo", ".tx-date"]
          .map((s) => [s, row.querySelector(s)?.getBoundingClientRect()] as const)
          .filter((p): p is readonly [string, DOMRect] => !!p[1] && p[1].width > 0);
        const rowBox = row.getBoundingClientRect();
        for (const [s, b] of parts) if (b.left < rowBox.left - 0.5 || b.right > rowBox.right + 0.5) found.push(`${s} sticks out of "${row.textContent}"`);
        for (let i = 0; i < parts.length; i++)
          for (let j = i + 1; j < parts.length; j++) {
            const [a, ba] = parts[i]!;
            const [b, bb] = parts[j]!;
            const apart = ba.right <= bb.left + 0.5 || bb.right <= ba.left + 0.5 || ba.bottom <= bb.top + 0.5 || bb.bottom <= ba.top + 0.5;
            if (!apart) found.push(`${a} and ${b} overlap in "${row.textContent}"`);
          }
      }
      return found;
    });
    expect(overlaps).toEqual([]);

    // The date-range picker: one tap, one day selected, also when a day was picked before.
    const picker = await openDatePicker(modal);
    // Two days of the month shown that can be picked, today aside (the month before on its first days).
    const pickable = picker.locator(".rdp-day:not(.rdp-disabled):not(.rdp-outside):not(.rdp-today) .rdp-day_button");
    if ((await pickable.count()) < 2) await picker.locator(".rdp-button_previous").tap();
    const [first, second] = [pickable.nth(0), pickable.nth(1)];
    const firstDay = (await first.textContent())!;
    await first.tap();
    expect(await selectedDays(picker)).toEqual([firstDay]);
    await picker.getByRole("button", { name: "Confirm" }).tap();
    await expect.poll(() => modal.locator(".period-label").textContent()).not.toBe("");

    await openDatePicker(modal);
    const secondDay = (await second.textContent())!;
    await second.tap();
    await page.screenshot({ path: path.join(OUT, "history-picker-360x740.png") });
    expect(await selectedDays(picker)).toEqual([secondDay]);
    // Every day and button of the calendar is big enough to tap (as e2e/accessibility.test.ts asks).
    const small = await picker
      .locator("button")
      .evaluateAll((buttons) => buttons.map((b) => b.getBoundingClientRect()).filter((r) => r.width > 0 && (r.height < 44 || r.width < 24)));
    expect(small).toEqual([]);
    const calendar = (await picker.boundingBox())!;
    expect(calendar.x + calendar.width).toBeLessThanOrEqual(width);
    const period = (await modal.locator(".period").boundingBox())!;
    expect(period.x + period.width).toBeLessThanOrEqual(width);
    // Escape closes the calendar, not History: the hand is back on Choose dates.
    await second.focus();
    await page.keyboard.press("Escape");
    await picker.waitFor({ state: "detached" });
    expect(await modal.isVisible()).toBe(true);
    expect(await modal.getByRole("button", { name: "Choose dates" }).evaluate((el) => el === document.activeElement)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the first rows on the first screen, the filters behind one button that counts those in use, and 'All dates' once", async () => {
    fs.mkdirSync(OUT, { recursive: true });
    const { page, context, errors } = await signedIn(suite, "alice@example.com", "Demo1234!", { phone: true });
    const modal = await openHistory(page);
    await listSettles(modal, () => true);
    await page.screenshot({ path: path.join(OUT, "history-folded-360x740.png") });

    // The first row is in view as the dialog opens, nothing scrolled.
    expect(await modal.evaluate((d) => d.scrollTop)).toBe(0);
    const row = (await modal.locator(".tx").first().boundingBox())!;
    expect(row.y).toBeGreaterThanOrEqual(0);
    expect(row.y + row.height).toBeLessThanOrEqual(740);

    // The filters wait behind their button, which says what it unfolds.
    const toggle = modal.getByRole("button", { name: "Filters" });
    const search = modal.getByRole("searchbox", { name: "Search" });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await search.isVisible()).toBe(false);
    expect(await toggle.locator(".badge").count()).toBe(0);
    await toggle.tap();
    await search.waitFor();
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    expect(
      await modal
        .locator(`[id="${await toggle.getAttribute("aria-controls")}"]`)
        .getByRole("searchbox", { name: "Search" })
        .count(),
    ).toBe(1);

    // "All dates" is said once, by its pressed button, not again as the period's label.
    expect(await modal.getByText("All dates").count()).toBe(1);
    expect(await modal.getByRole("button", { name: "All dates" }).getAttribute("aria-pressed")).toBe("true");

    // Each filter in use counts, on the button and in its name.
    const badge = toggle.locator(".badge");
    await modal.getByRole("button", { name: "Month", exact: true }).tap();
    await modal.getByRole("button", { name: "Filters, 1 active" }).waitFor();
    expect(await badge.textContent()).toBe("1");
    await search.fill("bread");
    await modal.getByRole("button", { name: "Filters, 2 active" }).waitFor();
    expect(await badge.textContent()).toBe("2");
    expect(await modal.getByText("All dates").count()).toBe(1);

    // The recipient's suggestions: a list the field controls and announces as open, one name a row, tall enough to tap.
    const recipient = modal.getByRole("combobox", { name: "Recipient" });
    await recipient.fill("bob");
    const suggestions = modal.locator(".suggestions");
    await suggestions.getByRole("button", { name: "Bob Durand" }).waitFor();
    expect(await recipient.getAttribute("aria-expanded")).toBe("true");
    expect(await recipient.getAttribute("aria-controls")).toBe(await suggestions.getAttribute("id"));
    expect(await suggestions.getAttribute("aria-labelledby")).toBeTruthy();
    await modal.getByRole("button", { name: "Filters, 3 active" }).waitFor();
    await page.screenshot({ path: path.join(OUT, "history-filters-360x740.png") });
    const list = (await suggestions.boundingBox())!;
    for (const b of await suggestions.getByRole("button").all()) {
      const box = (await b.boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(box.width).toBeGreaterThanOrEqual(list.width - 2);
    }

    // As in a combobox, the arrow keys go down to the names and back up to the field.
    const focused = (l: Locator) => l.evaluate((e) => e === document.activeElement);
    await recipient.press("ArrowDown");
    expect(await focused(suggestions.getByRole("button").first())).toBe(true);
    await page.keyboard.press("ArrowUp");
    expect(await focused(recipient)).toBe(true);

    // Folded again, the button still counts the filters in use.
    await toggle.tap();
    await search.waitFor({ state: "hidden" });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await badge.textContent()).toBe("3");
    expect(errors).toEqual([]);
    await context.close();
  });
});
