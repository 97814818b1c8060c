import type { Locator, Page } from "playwright-core";

/**
 * Asking members for money as a page model: Request money's "From members", and the dashboard's
 * card of asks, read as the asker reads it.
 */

/** Request money, "From members": the form that asks members for money, before anybody is picked. */
export async function openAskMembers(page: Page): Promise<Locator> {
  await page.getByRole("button", { name: "Request", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Request money - 1/2" });
  await dialog.getByRole("button", { name: "From members" }).click();
  return page.getByRole("dialog", { name: "Ask members for money" });
}

/** Request money, "From members": each member found and picked, the amount, the memo. The form, ready to Ask. */
export async function askMembers(page: Page, members: [search: string, name: string][], amount: string, memo: string): Promise<Locator> {
  const ask = await openAskMembers(page);
  for (const [search, name] of members) {
    await ask.getByLabel("Who?").fill(search);
    await ask.getByRole("button", { name }).click();
    await ask.getByRole("list", { name: "Members asked" }).getByText(name).waitFor();
  }
  await ask.getByLabel("Amount").fill(amount);
  await ask.getByLabel("What for?").fill(memo);
  return ask;
}

/** One member's part of the ask headed `heading` ("You asked 3.00 DL · Cinema"), on the asker's dashboard. */
export const askPart = (page: Page, name: string, heading: string): Locator =>
  page
    .locator(".asks .ask-group")
    .filter({ has: page.getByRole("heading", { name: heading }) })
    .locator(".ask-part")
    .filter({ hasText: name });
