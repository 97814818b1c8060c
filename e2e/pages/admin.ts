import type { Locator, Page } from "playwright-core";
import { english, goTo, press, type Way, type Words } from "./app";

/**
 * The administrators' screens as a page model: the console (unpaid top-up orders, members and
 * limits, the audit log), the account and credit requests, the members' list and a member's page
 * (wallets, freezing, sessions, password, PINs, rights). An action that asks first ("askTo…")
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

/** The console's row of the unpaid top-up order of `member` for `amount` ("10.00 DL"). */
export const unpaidOrder = (page: Page, member: string, amount: string): Locator =>
  page.getByRole("region", { name: "Unpaid top-up orders" }).locator("tr").filter({ hasText: member }).filter({ hasText: amount });

/** Mark as paid on an unpaid order's row: the question, open. */
export async function askToMarkPaid(page: Page, order: Locator): Promise<Locator> {
  await order.getByRole("button", { name: "Mark as paid" }).click();
  const question = page.getByRole("dialog", { name: "Mark this top-up order as paid?" });
  await question.waitFor();
  return question;
}

/** The console's audit log. */
export const auditLog = (page: Page, t: Words = english): Locator => page.getByRole("region", { name: t("Audit log") });

/** The newest entry of the audit log saying `action` ("Rights changed") that names every one of `names`. */
export const auditEntry = (page: Page, action: string, ...names: string[]): Locator =>
  names.reduce((rows, name) => rows.filter({ hasText: name }), auditLog(page).locator("tr").filter({ hasText: action })).first();

/** The console's row of `member` among the members and limits. */
export const consoleMember = (page: Page, member: string): Locator =>
  page.getByRole("region", { name: "Members and limits" }).locator("tr").filter({ hasText: member }).first();

/**
 * In the console's members and limits: `search` typed, Freeze on the row of `member`, and the
 * reason typed: the question, ready to freeze.
 */
export async function askToFreezeFromConsole(page: Page, search: string, member: string, reason: string, opts: Way = {}): Promise<Locator> {
  const { phone = false, t = english } = opts;
  const members = page.getByRole("region", { name: t("Members and limits") });
  await members.getByLabel(t("Search a member")).fill(search);
  await press(
    members
      .locator("tr")
      .filter({ hasText: member })
      .getByRole("button", { name: t("Freeze"), exact: true }),
    phone,
  );
  const question = page.getByRole("dialog", { name: t("Freeze the account of {name}?", { name: member }) });
  await question.getByLabel(t("Reason, as the member will read it")).fill(reason);
  return question;
}

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

/** Waits until `n` of the screen's lists show their table or their empty text: they are loaded. */
export async function lists(page: Page, n: number): Promise<void> {
  await page.waitForFunction((count) => document.querySelectorAll("main .admin-table, main .empty").length >= count, n);
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
