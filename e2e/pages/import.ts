import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { press, type Way } from "./app";
import { openSettings } from "./association";

/**
 * Moving in as a page model: the owner's import of members and their history (the files
 * checked, the preview, the import), then the invitations sent to the imported members and
 * their count on the screen.
 */

/**
 * Opens the import from the association's settings, reached from the menu of `owner` (their
 * name), as an owner does; once the import's screen is titled.
 */
export async function openImport(page: Page, owner: string, opts: Way = {}): Promise<void> {
  await openSettings(page, owner, opts);
  await press(page.getByRole("link", { name: "Import members" }), opts.phone);
  await page.waitForURL((u) => u.pathname === "/admin/import");
  await page.getByRole("heading", { level: 1, name: "Import members" }).waitFor();
}

/** The members' file and, if any, the history's chosen, then Check the files: the preview, once there. */
export async function checkFiles(page: Page, members: string, history?: string): Promise<void> {
  await chooseFile(page, "Members file", members);
  if (history !== undefined) await chooseFile(page, "History file (optional)", history);
  await page.getByRole("button", { name: "Check the files" }).click();
  // Files of thousands of lines take a while to read on a slow machine.
  await page.getByRole("heading", { name: "What will be imported" }).waitFor({ timeout: 20_000 });
}

/** A file field of the import: its label, the app's own "Choose a file", and the file chosen or "No file chosen". */
export const fileField = (page: Page, label: string): Locator => page.locator(".field").filter({ has: page.getByLabel(label) });

/** The file at `file` chosen in the field labelled `label`, once its name shows beside the button. */
export async function chooseFile(page: Page, label: string, file: string): Promise<void> {
  await page.getByLabel(label).setInputFiles(file);
  await fileField(page, label).getByText(path.basename(file)).waitFor();
}

/** The preview's line of a member already here (by their name here) whose address the file has too. */
export const alreadyHere = (page: Page, name: string): Locator => page.locator(".import-existing li").filter({ hasText: name });

/** Import, under the preview, and Import again when asked: what it says once done is the test's to read. */
export async function importChecked(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Import", exact: true }).click();
}

/** Invite the imported members (`count` of them, as the button says), and yes when asked. */
export async function inviteImported(page: Page, count: number): Promise<void> {
  await page.getByRole("button", { name: new RegExp(`Invite ${count} members`) }).click();
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /Invite|Send/ })
    .last()
    .click();
}

/** The count of invitations accepted, as the import's screen shows it. */
export async function invitationsAccepted(page: Page): Promise<string | undefined> {
  const text = await page
    .getByText(/Accepted/)
    .first()
    .locator("xpath=following-sibling::dd[1]")
    .textContent();
  return text?.trim();
}
