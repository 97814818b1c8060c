import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { signedIn, useSuite } from "./support/suite";
import { sendPayment, startPayment } from "./pages/payments";
import { monthSummary as summary, shownBalance } from "./pages/dashboard";

/**
 * On a 360×740 touch phone: the selected account's balance chart and this month's money
 * in and out on the dashboard, as the server works them out from the ledger, following a payment.
 */
const suite = useSuite();
const SCREENS = path.resolve(import.meta.dirname, "../test-results/screens");

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
    await sendPayment(page, send, "3.00");

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
