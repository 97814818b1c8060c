import type { Locator, Page } from "playwright-core";

/**
 * The member's dashboard as a page model: what its cards say, read as the member reads them.
 */

const press = (l: Locator, touch: boolean) => (touch ? l.tap() : l.click());

/** "1,234.50 DL" → 123450; "−12.50 DL" (the app's minus sign, or a hyphen) → −1250. */
export const cents = (text: string) => Math.round(Number(text.replace(/\u2212/g, "-").replace(/[^\d.-]/g, "")) * 100);

/**
 * The account summary's chart, drawn. The card asks for its figures when the browser sees it come
 * into view; on a loaded machine what arrives above it can push it back out before the browser
 * looked. Like a member, scroll to it again until it is drawn, and say what the card shows if it
 * never is.
 */
export async function summaryChart(page: Page): Promise<Locator> {
  const card = page.locator(".account-summary");
  await page.locator('section.transactions[aria-busy="false"]').waitFor();
  const chart = card.locator('svg[role="img"]');
  const drawn = async () => {
    // Scrolled by the page itself: its grey lines pulse, so it is never "stable" for Playwright's scroll.
    await card
      .first()
      .evaluate((e) => e.scrollIntoView(), undefined, { timeout: 5_000 })
      .catch(() => {});
    return chart.waitFor({ timeout: 3_000 }).then(
      () => true,
      () => false,
    );
  };
  const deadline = Date.now() + 30_000;
  while (!(await drawn())) {
    if (Date.now() > deadline) {
      const shows = (await card.count()) ? await card.first().evaluate((e) => `aria-busy=${e.getAttribute("aria-busy")}: ${e.textContent}`) : "no card";
      throw new Error(`the account summary's chart was not drawn in 30 s (${shows})`);
    }
  }
  return chart;
}

/**
 * The account summary's card: this month's money in and out, and where the balance chart's label
 * starts and ends, in cents. Below the transactions on a phone: drawn once the member scrolls to it.
 */
export async function monthSummary(page: Page): Promise<{ in: number; out: number; from: number; to: number }> {
  const card = page.locator(".account-summary");
  const label = (await (await summaryChart(page)).getAttribute("aria-label"))!;
  const [, from, to] = /^Balance went from (.+) to (.+) over 30 days$/.exec(label) ?? [];
  if (!from || !to) throw new Error(`the chart's label reads "${label}"`);
  const text = await card.getByText(/^This month: /).innerText();
  // Nothing in or nothing out is written without a sign ("0.00 DL out"), as early in a month.
  const month = /^This month: \+?(.+ DL) in · −?(.+ DL) out$/.exec(text);
  if (!month) throw new Error(`the month's line reads "${text}"`);
  return { in: cents(month[1]!), out: cents(month[2]!), from: cents(from!), to: cents(to!) };
}

/** The balance of the account card named `name` ("Main account") in the accounts list. */
export async function shownBalance(page: Page, name = "Main account"): Promise<number> {
  return cents(await accountCard(page, name).locator(".amount").innerText());
}

/** The card of the account named `name` ("Main account", "Pledged account") in the accounts list. */
export const accountCard = (page: Page, name = "Main account"): Locator => page.locator(".accounts button.account").filter({ hasText: name });

/** The accounts' cards drawn: the first one there. */
export async function accountsShown(page: Page): Promise<void> {
  await page.locator(".accounts button.account").first().waitFor();
}

/**
 * Waits until the card named `name` shows `balance` cents, as the app writes it ("125.00"), by
 * itself (its poll or a refresh) or as late as `timeout`.
 */
export async function balanceBecomes(page: Page, balance: number, opts: { name?: string; timeout?: number } = {}): Promise<void> {
  await page.waitForFunction(
    ([name, expected]) =>
      [...document.querySelectorAll(".accounts button.account")].some(
        (b) => b.textContent?.includes(name) && b.querySelector(".amount")?.textContent === expected,
      ),
    [opts.name ?? "Main account", (balance / 100).toFixed(2)] as const,
    { timeout: opts.timeout },
  );
}

/** Account actions: the wallet's menu, open. */
export async function openAccountActions(page: Page, opts: { touch?: boolean } = {}): Promise<void> {
  await press(page.getByRole("button", { name: "Account actions" }), opts.touch ?? true);
}

/** Account actions (the wallet's menu), then its item `item` ("QR code", "Reconversion"). */
export async function accountAction(page: Page, item: string, opts: { touch?: boolean } = {}): Promise<void> {
  await openAccountActions(page, opts);
  await press(page.getByRole("menuitem", { name: item }), opts.touch ?? true);
}

/** The "?" beside a word new to most members ("What is a signed wallet?"): the note it opens. */
export async function openHelp(page: Page, question: string): Promise<Locator> {
  await page.getByRole("button", { name: question }).tap();
  return page.getByRole("note", { name: question });
}

/** The bar of shortcuts at the foot of every screen on a phone (Home, History, Scan, Receive, Menu). */
export const shortcuts = (page: Page): Locator => page.getByRole("navigation", { name: "Shortcuts" });

/** The shortcut `name` tapped in the bar: a link (Home, History, Receive) or a button (Scan, Menu). */
export async function tapShortcut(page: Page, name: string): Promise<void> {
  const bar = shortcuts(page);
  await bar.getByRole("link", { name }).or(bar.getByRole("button", { name })).tap();
}

/** Refresh, on the accounts' card: the balances asked again, and the answer drawn (the card no longer busy). */
export async function refreshAccounts(page: Page, opts: { touch?: boolean } = {}): Promise<void> {
  const refreshed = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/accounts" && r.request().method() === "GET");
  await press(page.getByRole("button", { name: "Refresh" }), opts.touch ?? true);
  await refreshed;
  await page.locator('section.accounts[aria-busy="false"]').waitFor();
}

/** The notice a frozen account shows its member: that it is frozen, why, and what to do. */
export const frozenNotice = (page: Page): Locator => page.locator(".account-frozen");
