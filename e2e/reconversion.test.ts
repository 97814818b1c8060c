import { describe, expect, it } from "vitest";
import { toastText } from "./support/browser";
import { signedIn, useSuite } from "./support/suite";
import { balanceBecomes, shownBalance } from "./pages/dashboard";
import { expectSpokenDate, openTransaction, recentTransaction } from "./pages/history";
import { openReconversion, reconvert } from "./pages/topup";
import { reconversionLine } from "./pages/admin";

const suite = useSuite();

describe("reconversion", () => {
  it("alice reconverts 5.00 on her phone; admin@ moves it to paid in /admin; her detail dialog shows each stage and when, as a person says it", async () => {
    const alice = await signedIn(suite, "alice@example.com", undefined, { phone: true });
    const before = await shownBalance(alice.page);
    const modal = await openReconversion(alice.page);
    expect(await modal.getByRole("button", { name: "Back" }).count()).toBe(0);
    expect(await modal.getByLabel("Memo", { exact: true }).count()).toBe(0);
    const detail = await reconvert(modal, "5");
    await detail.getByText("Reconversion sent").waitFor();
    await detail.getByRole("button", { name: "Ok" }).click();
    // No favourite prompt after a reconversion. After a payment it replaces the details dialog in
    // the same update (one modal at a time, opened by the Ok button itself), so once the details
    // are gone, a prompt would be there.
    await detail.waitFor({ state: "hidden" });
    expect(await alice.page.getByRole("dialog", { name: "Add as favorite" }).count()).toBe(0);
    await balanceBecomes(alice.page, before - 500);
    const row = recentTransaction(alice.page, "Reconversion");
    await row.getByText("sent", { exact: true }).waitFor();

    const admin = await signedIn(suite, "admin@example.com");
    await admin.page.getByRole("button", { name: "Ada Admin" }).click();
    await admin.page.getByRole("menuitem", { name: "Administration" }).click();
    await admin.page.waitForURL(`${suite.server.url}/admin`);
    const line = reconversionLine(admin.page, "Alice Martin", "5.00 DL");
    for (const stage of ["received", "invoiced", "processed"]) {
      await line.getByRole("button", { name: `Mark as ${stage}` }).click();
      const ask = admin.page.getByRole("dialog", { name: "Move this reconversion to its next stage?" });
      expect(await ask.locator("dl").innerText()).toMatch(new RegExp(`Alice Martin[\\s\\S]*5\\.00 DL[\\s\\S]*→ ${stage}`));
      await ask.getByRole("button", { name: `Mark as ${stage}` }).click();
      await toastText(admin.page, `Reconversion of Alice Martin is now ${stage}`);
    }
    // Processed, it leaves the reconversions still to process.
    await line.waitFor({ state: "detached" });
    await admin.context.close();

    await alice.page.getByRole("button", { name: "Refresh" }).click();
    await row.getByText("processed", { exact: true }).waitFor();
    const processed = await openTransaction(row, "Reconversion details");
    await processed.getByText("Reconversion processed").waitFor();
    const stages = processed.getByRole("list", { name: "Reconversion stages" }).getByRole("listitem");
    expect(await stages.allInnerTexts()).toEqual(["Sent", "Received", "Invoiced", "Processed"]);
    expect(await processed.locator("li.done").count()).toBe(4);
    await expectSpokenDate(processed);
    await alice.context.close();
  });

  it("keeps /admin for holders of both rights", async () => {
    const { page, context } = await signedIn(suite, "credits@example.com");
    await page.goto(`${suite.server.url}/admin`);
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await context.close();
  });
});
