import fs from "node:fs";
import type { Locator, Page } from "playwright-core";
import { toastText } from "../support/browser";
import { openMenu } from "./app";

/**
 * The shop's till as a page model, on the shopkeeper's phone (by touch): the keypad and the amount
 * asked, the request's life (waiting, paid, cancelled, expired), the day's sales and their CSV, and
 * the cashiers a shopkeeper lets take payments at the till (Preferences).
 */

/** Menu, Receive payments: the till, once it is there. */
export async function openTill(page: Page): Promise<void> {
  await openMenu(page, "", { phone: true });
  await page.getByRole("menuitem", { name: "Receive payments" }).tap();
  await tillShown(page);
}

/** The till at its address (/receive), once its heading is there. */
export async function tillShown(page: Page): Promise<void> {
  await page.waitForURL((u) => u.pathname === "/receive");
  await page.getByRole("heading", { name: "Receive payments" }).waitFor();
}

/** The amount the till shows, as typed so far ("12.50 DL"). */
export const tillAmount = (page: Page): Locator => page.getByRole("status", { name: "Amount" });

/** `keys` tapped one by one on the till's keypad ("1250" is 12.50). */
export async function typeOnKeypad(page: Page, keys: string): Promise<void> {
  const pad = page.getByRole("group", { name: "Keypad" });
  for (const k of keys) await pad.getByRole("button", { name: k, exact: true }).tap();
}

/** The key that takes back the last digit typed. */
export async function deleteLastDigit(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Delete the last digit" }).tap();
}

/** Ask `amount` DL ("12.50"): the request goes, its QR code on the screen for the customer. */
export async function askAmount(page: Page, amount: string): Promise<void> {
  await page.getByRole("button", { name: `Ask ${amount} DL` }).tap();
}

/** Cancel the request: back on the keypad with the amount. */
export async function cancelRequest(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Cancel the request" }).tap();
}

/** The till turned to Paid, within `timeout` ms: its result (the amount, who paid and when). */
export async function paidSale(page: Page, timeout: number): Promise<Locator> {
  await page.getByRole("heading", { name: "Paid" }).waitFor({ timeout });
  return page.locator(".till-result.paid");
}

/** New sale: the keypad again, for the next customer. */
export async function newSale(page: Page): Promise<void> {
  await page.getByRole("button", { name: "New sale" }).tap();
}

/** The link to the day's sales under the keypad; `summary` ("2 sales · 16.50 DL") when the test knows what it says. */
export const todaysSales = (page: Page, summary?: string): Locator =>
  summary === undefined ? page.locator("a.till-today") : page.getByRole("link", { name: `Today: ${summary}` });

/** The day's sales, opened from the till's link: the Sales screen, once its heading is there. */
export async function openSales(page: Page, link = todaysSales(page)): Promise<void> {
  await link.tap();
  await page.getByRole("heading", { name: "Sales" }).waitFor();
}

/** A sale paid by `payer`, the latest first, in the day's sales. */
export const sale = (page: Page, payer: string): Locator => page.locator(".tx.sale").filter({ hasText: payer }).first();

/** The cells of a CSV as the app writes it (every field quoted, CRLF). */
const csvRows = (text: string) =>
  text
    .split("\r\n")
    .filter(Boolean)
    .map((line) => [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!.replace(/""/g, '"')));

/** Download CSV, on the Sales screen, once the app says so: the file's name and its rows (the header first). */
export async function downloadSales(page: Page): Promise<{ filename: string; rows: string[][] }> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).tap()]);
  await toastText(page, "Sales downloaded");
  return { filename: download.suggestedFilename(), rows: csvRows(fs.readFileSync(await download.path(), "utf8")) };
}

/** Preferences' Cashiers: the members who may take payments at this member's till. */
export const cashiers = (page: Page): Locator => page.getByRole("region", { name: "Cashiers" });

/** Preferences, then `email` invited as a cashier of the till (Add cashier). */
export async function inviteCashier(page: Page, baseUrl: string, email: string): Promise<Locator> {
  await page.goto(`${baseUrl}/preferences`);
  const section = cashiers(page);
  await section.getByLabel("E-mail of a new cashier").fill(email);
  await section.getByRole("button", { name: "Add cashier" }).tap();
  return section;
}

/** Remove `name` from the till's cashiers, and Remove again when asked. */
export async function removeCashier(page: Page, name: string): Promise<void> {
  await cashiers(page)
    .getByRole("button", { name: `Remove ${name}` })
    .tap();
  await page.getByRole("dialog", { name: "Remove this cashier?" }).getByRole("button", { name: "Remove" }).tap();
}

/** Preferences' Cashier invitations: those this member was sent, to accept. */
export const cashierInvitations = (page: Page): Locator => page.getByRole("region", { name: "Cashier invitations" });

/** The invitation of the shop `shop` accepted, in Preferences. */
export async function acceptCashierInvitation(page: Page, shop: string): Promise<void> {
  await cashierInvitations(page)
    .getByRole("button", { name: `Accept the invitation of ${shop}` })
    .tap();
}

/** The till reached by its address, for the shop chosen under Into (a cashier's, or the member's own). */
export async function tillOf(page: Page, baseUrl: string, into?: string): Promise<void> {
  await page.goto(`${baseUrl}/receive`);
  await page.getByRole("heading", { name: "Receive payments" }).waitFor();
  if (into !== undefined) await page.getByLabel("Into").selectOption({ label: into });
}
