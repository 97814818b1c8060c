import { describe, expect, it } from "vitest";
import { toastText } from "./support/browser";
import { signedIn, useSuite } from "./support/suite";
import { accountsShown } from "./pages/dashboard";
import { openPayment } from "./pages/payments";
import { topUpButton } from "./pages/topup";

const suite = useSuite();

describe("members and limits", () => {
  it("admin@ widens carol's mutual credit and stops her top-ups; carol sees both", async () => {
    const carol = await signedIn(suite, "carol@example.com");
    await topUpButton(carol.page).waitFor();
    await carol.context.close();

    const admin = await signedIn(suite, "admin@example.com");
    await admin.page.goto(`${suite.server.url}/admin`);
    const section = admin.page.getByRole("region", { name: "Members and limits" });
    await section.getByLabel("Search a member").fill("petit");
    const floor = section.getByLabel("Mutual credit floor — Carol Petit");
    await floor.waitFor();
    expect(await floor.inputValue()).toBe("-100.00");
    await floor.fill("-300.00");
    await section.getByLabel("Top-ups — Carol Petit").uncheck();
    await section.locator("tr").filter({ hasText: "Carol Petit" }).getByRole("button", { name: "Save" }).click();
    await toastText(admin.page, "Limits of Carol Petit saved");
    await admin.page.getByRole("region", { name: "Audit log" }).getByText("Limits changed").first().waitFor();
    await admin.context.close();

    const again = await signedIn(suite, "carol@example.com");
    await accountsShown(again.page);
    expect(await topUpButton(again.page).count()).toBe(0);
    const toAlice = await openPayment(again.page, "alice", "Alice Martin", { touch: false });
    // Pledged 85.00 plus mutual credit from +40.00 down to -300.00.
    await toAlice.getByText("Available: 425.00 DL").waitFor();
    await again.context.close();
  });
});
