import type { Page } from "playwright-core";

/**
 * The member's dashboard as a page model: what its cards say, read as the member reads them.
 */

/** "1,234.50 DL" → 123450. */
export const cents = (text: string) => Math.round(Number(text.replace(/[^\d.]/g, "")) * 100);

/**
 * The account summary's card: this month's money in and out, and where the balance chart's label
 * starts and ends, in cents. Below the transactions on a phone: drawn once the member scrolls to it.
 */
export async function monthSummary(page: Page): Promise<{ in: number; out: number; from: number; to: number }> {
  const card = page.locator(".account-summary");
  await page.locator('section.transactions[aria-busy="false"]').waitFor();
  await card.scrollIntoViewIfNeeded();
  const chart = card.getByRole("img", { name: /^Balance went from .+ to .+ over 30 days$/ });
  await chart.waitFor();
  const label = (await chart.getAttribute("aria-label"))!;
  const [, from, to] = /from (.+) to (.+) over/.exec(label)!;
  const text = await card.getByText(/^This month: /).innerText();
  // Nothing in or nothing out is written without a sign ("0.00 DL out"), as early in a month.
  const month = /^This month: \+?(.+ DL) in · −?(.+ DL) out$/.exec(text);
  if (!month) throw new Error(`the month's line reads "${text}"`);
  return { in: cents(month[1]!), out: cents(month[2]!), from: cents(from!), to: cents(to!) };
}

/** The balance of the account card named `name` ("Main account") in the accounts list. */
export async function shownBalance(page: Page, name = "Main account"): Promise<number> {
  return cents(await page.locator(".accounts button.account").filter({ hasText: name }).locator(".amount").innerText());
}
