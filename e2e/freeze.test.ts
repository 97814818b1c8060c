import { describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { toastText } from "./support/browser";
import { layoutProblems } from "./support/screen-checks";
import { sql } from "./support/server";
import { signedIn, useSuite } from "./support/suite";
import { auditEntry, consoleMember, openConsole, openMemberFromConsole, walletCard } from "./pages/admin";
import { accountsShown, frozenNotice } from "./pages/dashboard";
import { openPayment, pay, recipientRow, searchRecipients } from "./pages/payments";
import { openTill } from "./pages/till";

const suite = useSuite();
const SCREENS = path.resolve(import.meta.dirname, "../test-results/screens");

const movementsCount = async () => Number(((await sql(suite.server, "SELECT count(*)::int AS n FROM movements")) as { n: number }[])[0]!.n);

/** A screenshot of the phone's screen in both schemes, for a member's eyes. */
async function photograph(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENS, { recursive: true });
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: path.join(SCREENS, `${name}-360-en-${scheme}.png`), fullPage: true });
  }
}

describe("freezing a wallet", () => {
  it("an administrator freezes Bob's wallet with a reason: Alice reads that Bob cannot be paid, Bob reads why and his till shows no code; unfreezing restores all; both in the audit log", async () => {
    const reason = "Unusual activity: please call the association";
    // Alice, on her phone, has picked Bob to pay him when the freeze comes.
    const alice = await signedIn(suite, "alice@example.com", undefined, { phone: true });
    const picked = await openPayment(alice.page, "bob", "Bob Durand");
    // From the console: Bob's line, his page, Freeze on his wallet.
    const admin = await signedIn(suite, "admin@example.com");
    await openConsole(admin.page);
    await openMemberFromConsole(admin.page, "durand", "Bob Durand");
    const card = walletCard(admin.page, "Demo Lokal");
    await card.getByRole("button", { name: "Freeze" }).click();
    const ask = admin.page.getByRole("dialog", { name: "Freeze the account of Bob Durand?" });
    const field = ask.getByLabel("Reason, as the member will read it");
    // The hand goes to the reason: the dialog opens with the focus in it, and Freeze waits for it.
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await ask.getByRole("button", { name: "Freeze" }).isDisabled()).toBe(true);
    await field.fill(reason);
    await ask.getByRole("button", { name: "Freeze" }).click();
    await toastText(admin.page, "The account of Bob Durand is frozen");
    await card.getByText(`Frozen: ${reason}`).waitFor();
    // Back in the console, his line says so, in the danger colour, and the audit log has the reason.
    await admin.page.goBack();
    const line = consoleMember(admin.page, "Bob Durand");
    const chip = line.getByText("Frozen", { exact: true });
    await chip.waitFor();
    const inDanger = await chip.evaluate((el) => {
      const probe = document.createElement("span");
      probe.style.color = "var(--danger-color)";
      el.after(probe);
      const same = getComputedStyle(probe).color === getComputedStyle(el).color;
      probe.remove();
      return same;
    });
    expect(inDanger).toBe(true);
    await auditEntry(admin.page, `Account frozen: ${reason}`).waitFor();

    const before = await movementsCount();
    // Told as soon as the amount is typed, under the field, in Bob's name (not "This account is
    // frozen." under her own balance, which read as if hers were), and Send stays unavailable.
    await picked.getByLabel("Amount").fill("2.00");
    await picked.getByText("Bob Durand cannot receive payments at the moment.").waitFor();
    expect(await picked.getByText("This account is frozen.").count()).toBe(0);
    expect(await picked.getByRole("button", { name: "Send", exact: true }).isDisabled()).toBe(true);
    await alice.page.keyboard.press("Escape");
    await picked.waitFor({ state: "detached" });
    // Looking for him again, his row says so before any amount, and cannot be picked.
    const step1 = await searchRecipients(alice.page, "bob");
    const bobRow = recipientRow(step1, "Bob Durand");
    await bobRow.getByText("Cannot receive payments at the moment").waitFor();
    expect(await bobRow.isDisabled()).toBe(true);
    expect(await layoutProblems(alice.page)).toEqual([]);
    await photograph(alice.page, "frozen-payee");
    await step1.getByRole("button", { name: "Close" }).tap();
    await step1.waitFor({ state: "detached" });
    expect(await movementsCount()).toBe(before);

    // Bob, on his phone, reads why.
    const bob = await signedIn(suite, "bob@example.com", undefined, { phone: true });
    const notice = frozenNotice(bob.page);
    await notice.getByText("This account is frozen.").waitFor();
    await notice.getByText(reason).waitFor();
    await notice.getByText("It can neither send nor receive money. Please contact your association.").waitFor();
    // Pay and Request are off before he starts, with the reason beside them (not after his password).
    for (const name of ["Pay", "Request"]) {
      const button = bob.page.getByRole("button", { name, exact: true });
      expect(await button.isDisabled()).toBe(true);
      expect(await button.getAttribute("aria-describedby").then((id) => bob.page.locator(`#${id}`).innerText())).toBe("This account is frozen.");
    }
    expect(await layoutProblems(bob.page)).toEqual([]);
    await photograph(bob.page, "frozen-dashboard");
    // His till says it is frozen and has no keypad to ask with: no customer is left to be refused.
    await bob.page.emulateMedia({ colorScheme: "light" });
    await openTill(bob.page);
    await bob.page.getByText("This account is frozen: it cannot receive payments until the association unfreezes it.").waitFor();
    expect(await bob.page.getByRole("group", { name: "Keypad" }).count()).toBe(0);
    expect(await layoutProblems(bob.page)).toEqual([]);
    await photograph(bob.page, "frozen-till");
    await bob.context.close();

    await openMemberFromConsole(admin.page, "durand", "Bob Durand");
    await card.getByRole("button", { name: "Unfreeze" }).click();
    const confirm = admin.page.getByRole("dialog", { name: "Unfreeze the account of Bob Durand?" });
    expect(await confirm.locator("dl").innerText()).toContain(reason);
    await confirm.getByRole("button", { name: "Unfreeze" }).click();
    await toastText(admin.page, "The account of Bob Durand is no longer frozen");
    // The member's page is asked again after the answer: the card loses the reason once it is back.
    await card.getByText(/^Frozen:/).waitFor({ state: "detached" });
    await admin.page.goBack();
    await auditEntry(admin.page, `Account unfrozen: ${reason}`).waitFor();
    await line.getByText("Frozen", { exact: true }).waitFor({ state: "detached" });
    await admin.context.close();

    await pay(alice.page, "bob", "Bob Durand", "2.00");
    expect(await movementsCount()).toBe(before + 1);
    await alice.context.close();

    const again = await signedIn(suite, "bob@example.com");
    await accountsShown(again.page);
    expect(await frozenNotice(again.page).count()).toBe(0);
    await again.context.close();
  });
});
