import type { Download, Locator, Page } from "playwright-core";
import { goTo, openFromMenu, type Way } from "./app";

/**
 * The board's figures as a page model: each currency's card read as a board member reads it
 * (its figures, in cents; its movements per period), the period asked for, the ledger's health
 * checked, the books downloaded.
 */

/** Cents from an amount as the page writes it in English ("1,234.50 DL", "−20.00 DL"). */
export const centsOf = (text: string): bigint => {
  const m = /(-|\u2212)?([\d,]+)\.(\d{2})/.exec(text);
  if (!m) throw new Error(`no amount in ${JSON.stringify(text)}`);
  const cents = BigInt(m[2]!.replace(/,/g, "")) * 100n + BigInt(m[3]!);
  return m[1] ? -cents : cents;
};

/** Opens the figures by their address. */
export async function openFigures(page: Page): Promise<void> {
  await goTo(page, "/admin/figures");
}

/** Opens the figures from the menu of `member` (their name), once titled. */
export async function openFiguresFromMenu(page: Page, member: string, opts: Way = {}): Promise<void> {
  await openFromMenu(page, member, "Figures", opts);
}

/** The card of `currency`'s figures ("Demo Lokal"), once its first figure is there. */
export async function currencyFigures(page: Page, currency: string): Promise<Locator> {
  const card = page.getByRole("region", { name: currency });
  await card.locator("dd").first().waitFor();
  return card;
}

/** The figure a currency's card shows under `label` ("Money in circulation"), as written. */
export const figure = (card: Locator, label: string): Promise<string> =>
  card
    .locator("dt")
    .filter({ hasText: new RegExp(`^${label.replace(/[()]/g, "\\$&")}$`) })
    .locator("xpath=following-sibling::dd[1]")
    .textContent()
    .then((t) => t ?? "");

/** The money in circulation of `currency`, in cents, as the figures show it once opened again. */
export async function circulation(page: Page, currency: string): Promise<bigint> {
  await page.reload();
  return centsOf(await figure(await currencyFigures(page, currency), "Money in circulation"));
}

/** A count and a volume in cents, as the movements' totals show them. */
export interface Flow {
  count: number;
  volume: bigint;
}

/** Every figure of `currency`'s card, in cents where it is money, and the period's totals by kind. */
export async function readFigures(page: Page, currency: string) {
  const card = await currencyFigures(page, currency);
  const table = card.getByRole("table", { name: "Movements per month" });
  const totals = (await table.locator("tfoot tr").first().locator("td").allTextContents()).map((t) => t.trim());
  const pair = (i: number): Flow => ({ count: Number(totals[i]!.replace(/\D/g, "")), volume: centsOf(totals[i + 1]!) });
  return {
    circulation: centsOf(await figure(card, "Money in circulation")),
    reserve: centsOf(await figure(card, "Reserve")),
    coverage: await figure(card, "Coverage"),
    owed: centsOf(await figure(card, "Mutual credit owed")),
    held: centsOf(await figure(card, "Mutual credit held")),
    atFloor: Number(await figure(card, "Members at their floor")),
    atCeiling: Number(await figure(card, "Members at their ceiling")),
    withWallet: Number(await figure(card, "Members with a wallet")),
    active: Number(await figure(card, "Active members (30 days)")),
    payment: pair(0),
    topup: pair(2),
    reconversion: pair(4),
    retirement: pair(6),
  };
}

/** Asks for the period [from, to] (ISO days) by month, and waits for `currency`'s figures of it. */
export async function showPeriod(page: Page, from: string, to: string, currency: string): Promise<void> {
  await page.getByLabel("Period", { exact: true }).selectOption("custom");
  await page.getByLabel("From", { exact: true }).fill(from);
  await page.getByLabel("To", { exact: true }).fill(to);
  await page.getByLabel("Group by").selectOption("month");
  // The first month shown is the period's: the answer for these days has come.
  const firstMonth = new Date(`${from}T12:00:00Z`).toLocaleString("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
  const table = page.getByRole("region", { name: currency }).getByRole("table", { name: "Movements per month" });
  await table.locator("tbody tr").first().getByRole("rowheader", { name: firstMonth }).waitFor();
  await page.locator(".figures-currency.stale").waitFor({ state: "detached" });
}

/** The ledger's health: the last check's answer, and Check now. */
export const ledgerHealth = (page: Page): Locator => page.getByRole("region", { name: "Ledger health" });

/** Check now, in the ledger's health. */
export async function checkLedgerNow(page: Page): Promise<void> {
  await ledgerHealth(page).getByRole("button", { name: "Check now" }).click();
}

/**
 * The books: the decimal separator chosen (`separator`, its words: "Dot (1234.50)"), then
 * Download the movements or the statements: the file, as the browser receives it.
 */
export async function downloadBooks(page: Page, what: "movements" | "statements", separator: string): Promise<Download> {
  const books = page.getByRole("region", { name: "The books" });
  await books.getByLabel(separator).check();
  const [file] = await Promise.all([page.waitForEvent("download"), books.getByRole("button", { name: `Download the ${what}` }).click()]);
  return file;
}
