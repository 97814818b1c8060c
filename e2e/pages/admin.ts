import type { Locator, Page } from "playwright-core";
import { english, goTo, press, type Way, type Words } from "./app";

/**
 * The administrators' screens as a page model: the console (unpaid top-up orders, members and
 * their wallets, the audit log a page at a time), the account and credit requests, the members'
 * list and a member's page (wallets and their limits, freezing, sessions, password, PINs, rights). An action that asks first ("askTo…")
 * leaves its question open and returns it, for the test to read and to answer (app.ts `answer`).
 */

/** Waits until an administrator's screen has its title: the route's loading box is gone. */
const titled = (page: Page) => page.locator("main h1").first().waitFor();

/** The dialog's list of what it is about ("User Bob Durand Email bob@example.com Amount…"), as read. */
export const questionDetails = (question: Locator): Promise<string> => question.locator("dl").innerText();

// The console.

/** Opens the administration console by its address, once its title is there. */
export async function openConsole(page: Page): Promise<void> {
  await goTo(page, "/admin");
  await titled(page);
}

/** The console's line of a reconversion of `member` for `amount` ("5.00 DL") still to process. */
export const reconversionLine = (page: Page, member: string, amount: string): Locator =>
  page.getByRole("region", { name: "Reconversions" }).getByRole("listitem").filter({ hasText: member }).filter({ hasText: amount }).first();

/** The console's line of the unpaid top-up order of `member` for `amount` ("10.00 DL"). */
export const unpaidOrder = (page: Page, member: string, amount: string): Locator =>
  page.getByRole("region", { name: "Unpaid top-up orders" }).getByRole("listitem").filter({ hasText: member }).filter({ hasText: amount });

/** Mark as paid on an unpaid order's line: the question, open. */
export async function askToMarkPaid(page: Page, order: Locator): Promise<Locator> {
  await order.getByRole("button", { name: "Mark as paid" }).click();
  const question = page.getByRole("dialog", { name: "Mark this top-up order as paid?" });
  await question.waitFor();
  return question;
}

/** The console's audit log. */
export const auditLog = (page: Page, t: Words = english): Locator => page.getByRole("region", { name: t("Audit log") });

/** The audit log's entries shown (one list of them per day). */
export const auditEntries = (page: Page, t: Words = english): Locator => auditLog(page, t).getByRole("listitem");

/** The newest entry of the audit log saying `action` ("Rights changed") that names every one of `names`. */
export const auditEntry = (page: Page, action: string, ...names: string[]): Locator =>
  names.reduce((rows, name) => rows.filter({ hasText: name }), auditEntries(page).filter({ hasText: action })).first();

/** Each entry shown as the administrator reads it: what was done, at what time, about whom and by whom; and the day it is under. */
export const auditLines = (page: Page, t: Words = english): Promise<{ day: string; what: string; time: string; full: string; who: string }[]> =>
  auditLog(page, t)
    .locator(".audit-day")
    .evaluateAll((days) =>
      days.flatMap((day) =>
        [...day.querySelectorAll("li")].map((li) => ({
          day: day.querySelector("h3")?.textContent ?? "",
          what: li.querySelector(".audit-what")?.textContent ?? "",
          time: li.querySelector("time")?.textContent ?? "",
          full: li.querySelector("time")?.getAttribute("title") ?? "",
          who: li.querySelector(".audit-who")?.textContent ?? "",
        })),
      ),
    );

/** Shows the audit log's next page, once its entries are there: how many entries are shown then. */
export async function showOlderEntries(page: Page, opts: Way = {}): Promise<number> {
  const { phone = false, t = english } = opts;
  const before = await auditEntries(page, t).count();
  await press(auditLog(page, t).getByRole("button", { name: t("Show older entries") }), phone);
  await page.waitForFunction((n) => document.querySelectorAll(".audit-days li").length > n, before);
  return auditEntries(page, t).count();
}

/** Shows only the audit log's entries of one kind ("Tills and cashiers"; "All actions" for every kind), once they are there. */
export async function filterAuditLog(page: Page, kind: string, t: Words = english): Promise<void> {
  await auditLog(page, t)
    .getByLabel(t("Kind of action"))
    .selectOption({ label: t(kind) });
  await auditLog(page, t).locator('[aria-busy="false"]').first().waitFor();
}

/** The console's members and their wallets. */
export const consoleMembers = (page: Page, t: Words = english): Locator => page.getByRole("region", { name: t("Members and limits") });

/** The console's line of a wallet of `member` among the members and limits: a link to their page. */
export const consoleMember = (page: Page, member: string, t: Words = english): Locator =>
  consoleMembers(page, t)
    .getByRole("link", { name: new RegExp(`^${member}`) })
    .first();

/** In the console's members and limits, `search` typed: the line of `member`, once it is the one shown (or among those). */
export async function searchConsole(page: Page, search: string, member: string, t: Words = english): Promise<Locator> {
  await consoleMembers(page, t)
    .getByRole("searchbox", { name: t("Search a member") })
    .fill(search);
  const line = consoleMember(page, member, t);
  await line.waitFor();
  return line;
}

/** In the console, `search` typed and the line of `member` opened: their page, once titled with their name. */
export async function openMemberFromConsole(page: Page, search: string, member: string, opts: Way = {}): Promise<void> {
  await press(await searchConsole(page, search, member, opts.t), opts.phone);
  await page.getByRole("heading", { level: 1, name: member }).waitFor();
}

/**
 * From the console, as an administrator does it: `search` typed, the member's page opened from
 * their line, Freeze on their (first) wallet and the reason typed: the question, ready to freeze.
 */
export async function askToFreezeFromConsole(page: Page, search: string, member: string, reason: string, opts: Way = {}): Promise<Locator> {
  const { phone = false, t = english } = opts;
  await openMemberFromConsole(page, search, member, opts);
  await press(
    page
      .getByRole("region", { name: t("Wallets") })
      .getByRole("button", { name: t("Freeze"), exact: true })
      .first(),
    phone,
  );
  const question = page.getByRole("dialog", { name: t("Freeze the account of {name}?", { name: member }) });
  await question.getByLabel(t("Reason, as the member will read it")).fill(reason);
  return question;
}

/** How tall the page is, all of it scrolled through, in CSS pixels. */
export const pageHeight = (page: Page): Promise<number> => page.evaluate(() => document.documentElement.scrollHeight);

// The account and credit requests.

/** The addresses of the account and of the credit requests (what a measuring tool loads by itself). */
export const ACCOUNT_REQUESTS = "/admin/pending-accounts";
export const CREDIT_REQUESTS = "/admin/pending-credits";

/** Opens the account requests by their address, once the list or its empty text is there. */
export async function openAccountRequests(page: Page): Promise<void> {
  await goTo(page, ACCOUNT_REQUESTS);
  await titled(page);
  await lists(page, 1);
}

/** Opens the credit requests by their address, once the list or its empty text is there. */
export async function openCreditRequests(page: Page): Promise<void> {
  await goTo(page, CREDIT_REQUESTS);
  await titled(page);
  await lists(page, 1);
}

/** Waits until `n` of the screen's lists show their table, their lines or their empty text: they are loaded. */
export async function lists(page: Page, n: number): Promise<void> {
  await page.waitForFunction((count) => document.querySelectorAll("main .admin-table, main .console-list, main .empty").length >= count, n);
}

/** The row of a request: an account request by its member's name, a credit request by its reference. */
export const request = (page: Page, text: string): Locator => page.locator("tr").filter({ hasText: text });

/** The first request of the list, whoever it is from. */
export const firstRequest = (page: Page): Locator => page.locator("main .admin-table tbody tr").first();

/**
 * Approve on a request's row: its question, open. `question` is the title it is expected to
 * have ("Approve this wallet request?"); without it, whatever dialog opens.
 */
export async function askToApprove(page: Page, row: Locator, question?: string, opts: Way = {}): Promise<Locator> {
  const { phone = false, t = english } = opts;
  await press(row.getByRole("button", { name: t("Approve") }), phone);
  const dialog = question === undefined ? page.getByRole("dialog") : page.getByRole("dialog", { name: question });
  await dialog.waitFor();
  return dialog;
}

// The members' list and a member's page.

/** Opens the members' list by its address: its search field, as it comes. */
export async function openMembersList(page: Page, t: Words = english): Promise<Locator> {
  await goTo(page, "/admin/members");
  const search = page.getByRole("searchbox", { name: t("Search a member") });
  await search.waitFor();
  return search;
}

/** In the members' list, `search` typed: the link to the member named `name`, once found. */
export async function searchMember(page: Page, search: string, name: string, t: Words = english): Promise<Locator> {
  await page.getByRole("searchbox", { name: t("Search a member") }).fill(search);
  const link = page.getByRole("link", { name: new RegExp(`^${name}`) });
  await link.waitFor();
  return link;
}

/** In the members' list, `search` typed and the member named `name` opened: their page, once titled with their name. */
export async function openFoundMember(page: Page, search: string, name: string, opts: Way = {}): Promise<void> {
  await press(await searchMember(page, search, name, opts.t), opts.phone);
  await page.getByRole("heading", { level: 1, name }).waitFor();
}

/** Opens a member's page from the members' list, found by `search`, as an administrator does. */
export async function openMember(page: Page, search: string, name: string, opts: Way = {}): Promise<void> {
  await openMembersList(page, opts.t);
  await openFoundMember(page, search, name, opts);
}

/** A member's page: the card of their wallet in `currency` ("Demo Lokal"). */
export const walletCard = (page: Page, currency: string): Locator => page.getByRole("region", { name: "Wallets" }).getByRole("article", { name: currency });

/** A wallet's card on a member's page: its limits typed (`floor`, `ceiling` as "-150.00"; left as they are when not given), then Save the limits. */
export async function saveLimits(card: Locator, limits: { floor?: string; ceiling?: string; topUps?: boolean }, opts: Way = {}): Promise<void> {
  const { phone = false, t = english } = opts;
  if (limits.floor !== undefined) await card.getByLabel(t("Mutual credit floor")).fill(limits.floor);
  if (limits.ceiling !== undefined) await card.getByLabel(t("Mutual credit ceiling")).fill(limits.ceiling);
  if (limits.topUps !== undefined) await card.getByRole("switch", { name: t("Top-ups") }).setChecked(limits.topUps);
  await press(card.getByRole("button", { name: t("Save the limits") }), phone);
}

/** Freeze on a wallet's card, and the reason typed: the question, ready to freeze. */
export async function askToFreeze(page: Page, card: Locator, member: string, reason: string): Promise<Locator> {
  await card.getByRole("button", { name: "Freeze", exact: true }).click();
  const question = page.getByRole("dialog", { name: `Freeze the account of ${member}?` });
  await question.getByLabel("Reason, as the member will read it").fill(reason);
  return question;
}

/** Unfreeze on a frozen wallet's card: the question, open. */
export async function askToUnfreeze(page: Page, card: Locator, member: string): Promise<Locator> {
  await card.getByRole("button", { name: "Unfreeze" }).click();
  const question = page.getByRole("dialog", { name: `Unfreeze the account of ${member}?` });
  await question.waitFor();
  return question;
}

/** A member's page: their sessions. */
export const sessions = (page: Page, t: Words = english): Locator => page.getByRole("region", { name: t("Sessions") });

/** Sign out everywhere, in the member's sessions: the question, open. */
export async function askToSignOutEverywhere(page: Page, member: string, opts: Way = {}): Promise<Locator> {
  const { phone = false, t = english } = opts;
  await press(sessions(page, t).getByRole("button", { name: t("Sign out everywhere") }), phone);
  const question = page.getByRole("dialog", { name: t("Sign {name} out everywhere?", { name: member }) });
  await question.waitFor();
  return question;
}

/** Send a password reset link, in the member's password: the question, open. */
export async function askToSendResetLink(page: Page, member: string): Promise<Locator> {
  await page.getByRole("region", { name: "Password" }).getByRole("button", { name: "Send a password reset link" }).click();
  const question = page.getByRole("dialog", { name: `Send ${member} a link to choose a new password?` });
  await question.waitFor();
  return question;
}

/** A member's page: their PINs. */
export const pins = (page: Page): Locator => page.getByRole("region", { name: "PINs" });

/** Reset PIN attempts, in the member's PINs: the question, open. */
export async function askToResetPinAttempts(page: Page, member: string): Promise<Locator> {
  await pins(page).getByRole("button", { name: "Reset PIN attempts" }).click();
  const question = page.getByRole("dialog", { name: `Reset the PIN attempts of ${member}?` });
  await question.waitFor();
  return question;
}

/** A member's page: their rights, the switches and Save the rights. */
export const rights = (page: Page): Locator => page.getByRole("region", { name: "Rights" });

/** Each right of `granted` ("Board") switched on, then Save the rights: the question, which asks for a password. */
export async function askToChangeRights(page: Page, member: string, granted: string[]): Promise<Locator> {
  for (const right of granted) await rights(page).getByRole("switch", { name: right }).check();
  await rights(page).getByRole("button", { name: "Save the rights" }).click();
  const question = page.getByRole("dialog", { name: `Change the rights of ${member}?` });
  await question.waitFor();
  return question;
}

/** The administrator's own password typed in the rights' question, then Save the rights. */
export async function confirmRights(question: Locator, password: string): Promise<void> {
  await question.getByLabel("Account password").fill(password);
  await question.getByRole("button", { name: "Save the rights" }).click();
}

/** Gives `member` the rights `granted`, confirmed with the administrator's `password`: the question, answered. */
export async function giveRights(page: Page, member: string, granted: string[], password: string): Promise<Locator> {
  const question = await askToChangeRights(page, member, granted);
  await confirmRights(question, password);
  return question;
}
