import type { Locator, Page } from "playwright-core";
import { english, openFromMenu, type Way, type Words } from "./app";
import { signInButton, typeNewPassword } from "./members";

/**
 * The association as a page model: the link its first administrator or an invited member gets
 * to choose a password (signing up is pages/members.ts's), and its settings as its owner changes
 * them (the currency's symbol, the logo, the main colour, how much members may owe, the preview).
 */

// Joining by a mailed link.

/**
 * Opens a link mailed to choose a password (the first administrator's, `first`: her first
 * password; an invited member's), chooses `password`, and is back on the sign-in page.
 */
export async function choosePasswordFromLink(page: Page, link: string, password: string, opts: { first?: boolean } = {}): Promise<void> {
  await page.goto(link);
  await page.getByRole("heading", { name: opts.first ? "Choose your password" : "Choose a new password" }).waitFor();
  await typeNewPassword(page, password);
  await page.getByRole("button", { name: opts.first ? "Save my password" : "Save the new password" }).click();
  await signInButton(page).waitFor();
}

// The settings.

/**
 * Opens the association's settings from the owner's menu (`owner`, their name), once the form
 * is there to edit.
 */
export async function openSettings(page: Page, owner: string, opts: Way = {}): Promise<void> {
  await openFromMenu(page, owner, "Association settings", opts);
  await page.waitForURL((u) => u.pathname === "/admin/settings");
  await currencySymbol(page, opts.t).waitFor();
}

/** The settings' field of the currency's symbol. */
export const currencySymbol = (page: Page, t: Words = english): Locator => page.getByLabel(t("Currency symbol"));

/** The settings' field of how much members may owe (the ledger's floor, written without its minus). */
export const membersMayOwe = (page: Page, t: Words = english): Locator => page.getByLabel(t("Members may owe up to"));

/** The settings' Save the settings (disabled, by aria-disabled, while nothing has changed). */
export const saveButton = (page: Page, t: Words = english): Locator => page.getByRole("button", { name: t("Save the settings") });

/** The settings' preview: the sign-in page and the dashboard as members will see them once saved. */
export const preview = (page: Page): Locator => page.getByRole("region", { name: "Preview" });

/** Uploads `file` as the association's logo (saved at once, without Save). */
export async function uploadLogo(page: Page, file: string): Promise<void> {
  await page.getByLabel("Upload a logo").setInputFiles(file);
}

/** Picks `colour` ("#8a2be2") as the main colour. */
export async function pickMainColour(page: Page, colour: string): Promise<void> {
  await page.getByLabel("Main colour").fill(colour);
}

/** Save the settings. */
export async function saveSettings(page: Page, t: Words = english): Promise<void> {
  await saveButton(page, t).click();
}

/**
 * Types how much members may owe (`amount`, as the owner writes it), then Save the settings:
 * the question that a new floor asks first, open.
 */
export async function askToSaveWhatMembersMayOwe(page: Page, amount: string, t: Words = english): Promise<Locator> {
  await membersMayOwe(page, t).fill(amount);
  await saveSettings(page, t);
  const question = page.getByRole("dialog", { name: t("Lower how much members may owe?") });
  await question.waitFor();
  return question;
}
