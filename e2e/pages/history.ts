import fs from "node:fs";
import { expect } from "vitest";
import type { Locator, Page } from "playwright-core";

/**
 * The transactions as a page model: the dashboard's latest ones and their details (opened by
 * click), and the whole history ("All transactions") with its filters, its calendar and its CSV,
 * used as a member does on a phone (by touch).
 */

/** The dashboard's latest transaction, or the latest whose row says `text`. */
export const recentTransaction = (page: Page, text?: string): Locator => {
  const rows = page.locator(".transactions .tx");
  return (text === undefined ? rows : rows.filter({ hasText: text })).first();
};

/** A transaction's row clicked: its details, in the dialog titled `title`. */
export async function openTransaction(row: Locator, title = "Transaction details"): Promise<Locator> {
  await row.click();
  return row.page().getByRole("dialog", { name: title });
}

/** The history's dialog ("All transactions"), however it was opened. */
export const historyDialog = (page: Page): Locator => page.getByRole("dialog", { name: "All transactions" });

/** See more, under the latest transactions: the history, once its first row is there. */
export async function openHistory(page: Page): Promise<Locator> {
  await page.getByRole("button", { name: "See more" }).tap();
  const history = historyDialog(page);
  await history.locator(".tx").first().waitFor();
  return history;
}

/** Unfolds the filters, which a phone keeps behind their button. */
export async function showFilters(history: Locator): Promise<void> {
  await history.getByRole("button", { name: "Filters" }).tap();
  await history.getByRole("searchbox", { name: "Search" }).waitFor();
}

/** Words or an amount typed in the history's search (the filters unfolded). */
export async function searchHistory(history: Locator, text: string): Promise<void> {
  await history.getByRole("searchbox", { name: "Search" }).fill(text);
}

/** A name, or part of one, typed in the Recipient filter without picking a suggestion. */
export async function filterByRecipient(history: Locator, text: string): Promise<void> {
  await history.getByLabel("Recipient").fill(text);
}

/** Each row as the screen shows it: amount (as the CSV writes it), counterparty's full name, memo. */
export async function shownRows(history: Locator): Promise<string[][]> {
  return history
    .locator(".tx")
    .evaluateAll((rows) =>
      rows.map((r) => [
        (r.querySelector(".tx-amount")?.textContent ?? "").replace(/[^\d.-]/g, ""),
        r.querySelector(".tx-related")?.getAttribute("title") ?? "",
        r.querySelector(".tx-memo")?.textContent ?? "",
      ]),
    );
}

/** Waits until the list has settled on rows that all pass `test` (and at least one): those rows. */
export async function listSettles(history: Locator, test: (row: string[]) => boolean): Promise<string[][]> {
  let rows: string[][] = [];
  await expect
    .poll(
      async () => {
        if ((await history.locator(".tx-list").getAttribute("aria-busy")) === "true") return false;
        rows = await shownRows(history);
        return rows.length > 0 && rows.every(test);
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return rows;
}

/** Download: the CSV's rows as [amount, counterparty, description], the member being `me`. */
export async function downloadedRows(history: Locator, me: string): Promise<string[][]> {
  const [download] = await Promise.all([history.page().waitForEvent("download"), history.getByRole("button", { name: "Download" }).tap()]);
  const text = fs.readFileSync(await download.path(), "utf8");
  const lines = text.split("\r\n").slice(1, -1);
  return lines.map((line) => {
    const [source, target, amount, , description] = JSON.parse(`[${line}]`) as string[];
    return [amount!, source === me ? target! : source!, description!];
  });
}

/** Choose dates: the calendar, once its days are drawn. */
export async function openDatePicker(history: Locator): Promise<Locator> {
  await history.getByRole("button", { name: "Choose dates" }).tap();
  const picker = history.locator(".picker");
  await picker.locator(".rdp-day_button").first().waitFor();
  return picker;
}

/**
 * The days that show as selected: those the calendar marks selected, then every day drawn in the
 * selection's colour (text, fill or border), so that today cannot pass for a second selected day.
 */
export async function selectedDays(picker: Locator): Promise<string[]> {
  return picker.locator(".rdp-day").evaluateAll((days) => {
    const marked = days.filter((d) => d.getAttribute("aria-selected") === "true" || d.querySelector("[aria-selected='true']"));
    if (marked.length === 0) return [];
    // The calendar's accent colour, as computed styles write colours.
    const probe = document.createElement("span");
    probe.style.color = "var(--rdp-accent-color)";
    marked[0]!.closest(".rdp-root")!.appendChild(probe);
    const accent = getComputedStyle(probe).color;
    probe.remove();
    const looksSelected = (d: Element) => {
      const b = d.querySelector("button");
      if (!b) return false;
      const s = getComputedStyle(b);
      return [s.backgroundColor, s.color, s.borderTopColor].includes(accent);
    };
    return [...new Set([...marked, ...days.filter(looksSelected)])].map((d) => d.textContent ?? "");
  });
}

/**
 * The two dates of a detail dialog: when, as the head says it to a person ("Today, 9:41 AM"), and
 * the spec's exact date among its details ("2026-12-03 08:46:21+01:00").
 */
export async function detailDates(dialog: Locator): Promise<{ spoken: string; exact: string }> {
  return { spoken: await dialog.locator(".detail-when").innerText(), exact: await dialog.locator(".detail-date").innerText() };
}

/** A detail dialog says when as a person does, a time and no ISO date, and keeps the spec's exact date. */
export async function expectSpokenDate(dialog: Locator): Promise<void> {
  const { spoken, exact } = await detailDates(dialog);
  expect(spoken).toMatch(/\d{1,2}:\d{2}/);
  expect(spoken).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  expect(exact).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
}
