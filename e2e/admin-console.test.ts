import { describe, expect, it } from "vitest";
import { toastText } from "./support/browser";
import { signedIn, useSuite } from "./support/suite";

const suite = useSuite();

describe("the administration console", () => {
  it("marks a bank-transfer order paid, which the member then sees waiting for validation, and keeps it in the audit log", async () => {
    const bob = await signedIn(suite, "bob@example.com");
    await bob.page.getByRole("button", { name: "Top up" }).click();
    const modal = bob.page.getByRole("dialog", { name: "Top up my account" });
    await modal.getByLabel("Amount").fill("10");
    await modal.getByRole("button", { name: "Next" }).click();
    const detail = bob.page.getByRole("dialog", { name: "Top-up details" });
    await detail.getByText("Requested 10.00 DL").waitFor();
    await detail.getByRole("button", { name: "Ok" }).click();

    const admin = await signedIn(suite, "admin@example.com");
    await admin.page.goto(`${suite.server.url}/admin`);
    const row = admin.page
      .getByRole("region", { name: "Unpaid top-up orders" })
      .locator("tr")
      .filter({ hasText: "Bob Durand" })
      .filter({ hasText: "10.00 DL" });
    expect(await row.locator("code").innerText()).toMatch(/^MU-[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    await row.getByText("bob@example.com").waitFor();
    await row.getByRole("button", { name: "Mark as paid" }).click();
    const ask = admin.page.getByRole("dialog", { name: "Mark this top-up order as paid?" });
    expect(await ask.locator("dl").innerText()).toMatch(/Bob Durand\s+Email\s+bob@example\.com\s+Amount\s+10\.00 DL/);
    await ask.getByRole("button", { name: "Mark as paid" }).click();
    await toastText(admin.page, "The top-up order is marked as paid; it now awaits validation.");
    await row.waitFor({ state: "detached" });
    const audit = admin.page.getByRole("region", { name: "Audit log" });
    // Who did what to whom, in words: no action code, no id.
    await audit.locator("tr").filter({ hasText: "Top-up marked as paid" }).filter({ hasText: "Ada Admin" }).filter({ hasText: "Bob Durand" }).first().waitFor();
    await admin.context.close();

    await bob.page.getByRole("button", { name: "Refresh" }).click();
    await bob.page.getByRole("heading", { name: "Top up waiting admin validation" }).waitFor();
    await bob.context.close();
  });
});
