import { describe, expect, it } from "vitest";
import { toastText } from "./support/browser";
import { signedIn, useSuite } from "./support/suite";
import { auditEntry, openConsole, openMemberFromConsole, saveLimits, walletCard } from "./pages/admin";
import { accountsShown } from "./pages/dashboard";
import { openPayment } from "./pages/payments";
import { topUpButton } from "./pages/topup";

const suite = useSuite();

describe("members and limits", () => {
  it("admin@ widens carol's mutual credit and stops her top-ups; carol sees both", async () => {
    const carol = await signedIn(suite, "carol@example.com");
    await topUpButton(carol.page).waitFor();
    await carol.context.close();

    // From the console's line of Carol to her page, where her wallet's limits are.
    const admin = await signedIn(suite, "admin@example.com");
    await openConsole(admin.page);
    await openMemberFromConsole(admin.page, "petit", "Carol Petit");
    const card = walletCard(admin.page, "Demo Lokal · signed wallet");
    expect(await card.getByLabel("Mutual credit floor").inputValue()).toBe("-100.00");
    await saveLimits(card, { floor: "-300.00", topUps: false });
    await toastText(admin.page, "Limits of Carol Petit saved");
    await openConsole(admin.page);
    await auditEntry(admin.page, "Limits changed", "Carol Petit").waitFor();
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
