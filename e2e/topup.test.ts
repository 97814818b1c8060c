import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { toastText } from "./support/browser";
import { signedIn, useSuite } from "./support/suite";
import { balanceBecomes, shownBalance } from "./pages/dashboard";
import { expectSpokenDate } from "./pages/history";
import { awaitingValidation, deleteTopUp, openTopUp, payInDemoCheckout, requestTopUp, topUpButton, topUpDetails } from "./pages/topup";

// Short refresh intervals, as an association may configure them, so polling shows within the test.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-topup-"));
const configFile = path.join(dir, "config.json");
fs.writeFileSync(configFile, JSON.stringify({ accountsRefreshInterval: 10, transactionsRefreshInterval: 5 }));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const suite = useSuite(() => ({ APP_CONFIG: configFile }));

describe("topping up", () => {
  it("alice tops up 25.00 on her phone through the demo checkout, her dialog notices the payment, credits@ approves, her balance rises by itself", async () => {
    const alice = await signedIn(suite, "alice@example.com", undefined, { phone: true });
    const before = await shownBalance(alice.page);
    const modal = await openTopUp(alice.page);
    await modal.getByText("Minimum credit amount: 5.00 DL").waitFor();
    await modal.getByText("Maximum credit amount: 500.00 DL").waitFor();
    const next = modal.getByRole("button", { name: "Next" });
    await modal.getByLabel("Amount").fill("4.99");
    await modal.getByText("The minimum top up amount must be equal or greater than 5.00 DL").waitFor();
    expect(await next.isDisabled()).toBe(true);
    await modal.getByLabel("Amount").fill("500.01");
    await modal.getByText("The maximum top up amount must be equal or less than 500.00 DL").waitFor();
    expect(await next.isDisabled()).toBe(true);
    await modal.getByLabel("Amount").fill("25");
    await modal.getByLabel("Amount").press("Enter");
    await toastText(alice.page, "Top-up request has been successfully created");

    const detail = topUpDetails(alice.page);
    await detail.getByText("Requested 25.00 DL").waitFor();
    await detail.getByText("Your top-up request is waiting for you to pay it or delete it").waitFor();
    await expectSpokenDate(detail);
    await payInDemoCheckout(detail, "25.00");
    // The dialog polls the order by itself (every 5 s) and closes when it is paid.
    await toastText(alice.page, "The Top-up request has been successfully payed");
    await detail.waitFor({ state: "hidden" });
    await awaitingValidation(alice.page).waitFor();

    const credits = await signedIn(suite, "credits@example.com");
    await credits.page.getByRole("button", { name: "Cleo Credits" }).click();
    await credits.page.getByRole("menuitem", { name: "Credit requests" }).click();
    await credits.page.waitForURL(`${suite.server.url}/admin/pending-credits`);
    const row = credits.page.locator("tr").filter({ hasText: "Alice Martin" }).filter({ hasText: "25.00 DL" }).first();
    await row.waitFor();
    const rowsBefore = await credits.page.locator("tbody tr").count();
    await row.getByRole("button", { name: "Approve" }).click();
    await credits.page.getByRole("dialog", { name: "Approve 25.00 DL for Alice Martin?" }).getByRole("button", { name: "Approve" }).click();
    await toastText(credits.page, "Top up request from Alice Martin of 25.00 DL was validated");
    await credits.page.waitForFunction((n) => document.querySelectorAll("tbody tr").length === n - 1 || document.querySelector(".empty"), rowsBefore);
    await credits.context.close();

    // No reload: the accounts poll (every 10 s here) brings the new balance.
    await balanceBecomes(alice.page, before + 2500, { timeout: 30_000 });
    await alice.context.close();
  });

  it("shows the unpaid top-up instead of a new one, and deletes it", async () => {
    const { page, context } = await signedIn(suite, "bob@example.com");
    const detail = await requestTopUp(page, "10");
    await detail.getByRole("button", { name: "Ok" }).click();
    await page.getByRole("heading", { name: "My unpaid top-up requests" }).waitFor();

    await topUpButton(page).click();
    await toastText(page, "You already have a pending top-up. Please either pay or delete it before proceeding");
    await detail.getByText("Requested 10.00 DL").waitFor();
    await deleteTopUp(detail, "10.00");
    await toastText(page, "The top-up request has been successfully deleted");
    await page.getByRole("heading", { name: "My unpaid top-up requests" }).waitFor({ state: "hidden" });
    await context.close();
  });

  it("keeps the admin screens for holders of their right", async () => {
    const { page, context } = await signedIn(suite, "bob@example.com");
    await page.goto(`${suite.server.url}/admin/pending-credits`);
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await page.goto(`${suite.server.url}/admin/pending-accounts`);
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await context.close();
  });
});
