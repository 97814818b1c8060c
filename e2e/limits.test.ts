import { describe, expect, it } from "vitest";
import { toastText } from "./support/browser";
import { signedIn, useSuite } from "./support/suite";

const suite = useSuite();

describe("members and limits", () => {
  it("admin@ widens carol's mutual credit and stops her top-ups; carol sees both", async () => {
    const carol = await signedIn(suite, "carol@example.com");
    await carol.page.getByRole("button", { name: "Top up" }).waitFor();
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
    await again.page.locator(".accounts button.account").first().waitFor();
    expect(await again.page.getByRole("button", { name: "Top up" }).count()).toBe(0);
    await again.page.getByRole("button", { name: "Pay" }).click();
    await again.page.getByRole("dialog").getByPlaceholder("Name, email address or phone number").fill("alice");
    await again.page
      .getByRole("dialog")
      .getByRole("button", { name: /^Alice Martin/ })
      .first()
      .click();
    // Pledged 85.00 plus mutual credit from +40.00 down to -300.00.
    await again.page.getByRole("dialog").getByText("Available: 425.00 DL").waitFor();
    await again.context.close();
  });
});
