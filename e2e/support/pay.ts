import type { Locator, Page } from "playwright-core";

/**
 * On a phone, as a member does it: Pay, search `search`, tap the member named `name`, type the
 * amount (and the memo). Returns Send money's second step, ready to send.
 */
export async function startPayment(page: Page, search: string, name: string, amount: string, memo?: string): Promise<Locator> {
  await page.getByRole("button", { name: "Pay", exact: true }).tap();
  const step1 = page.getByRole("dialog", { name: "Send money - 1/2" });
  await step1.getByPlaceholder("Name, email address or phone number").fill(search);
  await step1
    .getByRole("button", { name: new RegExp(`^${name}`) })
    .first()
    .tap();
  const step2 = page.getByRole("dialog", { name: "Send money - 2/2" });
  await step2.getByLabel("Amount").fill(amount);
  if (memo !== undefined) await step2.getByLabel("Memo", { exact: true }).fill(memo);
  return step2;
}
