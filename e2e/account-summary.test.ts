import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { signedIn, useSuite } from "./support/suite";
import { startPayment } from "./support/pay";

/**
 * On a 360×740 touch phone: the selected account's balance chart and this month's money
 * in and out on the dashboard, as the server works them out from the ledger, following a payment.
 */
const suite = useSuite();
const SCREENS = path.resolve(import.meta.dirname, "../test-results/screens");

/** "1,234.50 DL" → 123450. */
const cents = (text: string) => Math.round(Number(text.replace(/[^\d.]/g, "")) * 100);

/** What the card says: the month's in and out, and where the chart's label starts and ends (cents). */
async function summary(page: Page) {
  const card = page.locator(".account-summary");
  // Below the transactions on a phone: drawn once the member scrolls to it, the movements above it in.
  await page.locator('section.transactions[aria-busy="false"]').waitFor();
  await card.scrollIntoViewIfNeeded();
  const chart = card.getByRole("img", { name: /^Balance went from .+ to .+ over 30 days$/ });
  await chart.waitFor();
  const label = (await chart.getAttribute("aria-label"))!;
  const [, from, to] = /from (.+) to (.+) over/.exec(label)!;
  const text = await card.getByText(/^This month: /).innerText();
  // Nothing in or nothing out is written without a sign ("0.00 DL out"), as early in a month.
  const month = /^This month: \+?(.+ DL) in · −?(.+ DL) out$/.exec(text);
  expect(month, text).not.toBeNull();
  return { in: cents(month![1]!), out: cents(month![2]!), from: cents(from!), to: cents(to!) };
}

/** The selected account's balance as its card in the accounts list shows it. */
const shownBalance = async (page: Page) =>
  cents(await page.locator(".accounts button.account").filter({ hasText: "Main account" }).locator(".amount").innerText());

describe("the dashboard's balance chart and month totals on a phone", () => {
  it("shows the month's money in and out, and a payment moves them and the chart's last point", async () => {
    const bob = await signedIn(suite, "bob@example.com", "Demo1234!", { phone: true });
    const bobBefore = await summary(bob.page);

    const { page, context, errors } = await signedIn(suite, "alice@example.com", "Demo1234!", { phone: true });
    const before = await summary(page);
    expect(before.to).toBe(await shownBalance(page));
    fs.mkdirSync(SCREENS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENS, "account-summary-360x740.png"), fullPage: true });

    const send = await startPayment(page, "durand", "Bob Durand", "3.00", "Chart test");
    await send.getByRole("button", { name: "Send", exact: true }).tap();
    await send.getByRole("button", { name: "Confirm and send" }).tap();
    const receipt = page.getByRole("dialog", { name: "Payment confirmation" });
    await receipt.getByText("Sent 3.00 DL").waitFor();

    // The card follows the payment without a reload: out by 3.00 more, the chart ending at the new balance.
    await expect.poll(async () => (await summary(page)).out, { timeout: 10_000 }).toBe(before.out + 300);
    const after = await summary(page);
    expect(after.in).toBe(before.in);
    expect(after.to).toBe(before.to - 300);
    expect(after.to).toBe(await shownBalance(page));
    expect(errors).toEqual([]);
    await context.close();

    // Bob, on his next look, has the 3.00 in.
    await bob.page.reload();
    await expect.poll(async () => (await summary(bob.page)).in, { timeout: 10_000 }).toBe(bobBefore.in + 300);
    expect((await summary(bob.page)).to).toBe(bobBefore.to + 300);
    expect(bob.errors).toEqual([]);
    await bob.context.close();
  });
});
