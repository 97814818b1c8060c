import { describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { toastText } from "./support/browser";
import { layoutProblems } from "./support/screen-checks";
import { sql } from "./support/server";
import { signedIn, useSuite } from "./support/suite";
import { accountsShown, frozenNotice } from "./pages/dashboard";
import { sendPayment, startPayment } from "./pages/payments";

const suite = useSuite();
const SCREENS = path.resolve(import.meta.dirname, "../test-results/screens");

const movementsCount = async () => Number(((await sql(suite.server, "SELECT count(*)::int AS n FROM movements")) as { n: number }[])[0]!.n);

/** On a wide screen, by click. */
const CLICK = { touch: false };

/** Alice starts paying Bob `amount`: Send money's second step, with the amount typed. */
const payBob = (page: Page, amount: string) => startPayment(page, "bob", "Bob Durand", amount, undefined, CLICK);

describe("freezing a wallet", () => {
  it("an administrator freezes Bob's wallet with a reason: Alice's payment is refused, Bob reads why; unfreezing restores both; both in the audit log", async () => {
    const reason = "Unusual activity: please call the association";
    const admin = await signedIn(suite, "admin@example.com");
    await admin.page.goto(`${suite.server.url}/admin`);
    const section = admin.page.getByRole("region", { name: "Members and limits" });
    await section.getByLabel("Search a member").fill("durand");
    const row = section.locator("tr").filter({ hasText: "Bob Durand" });
    await row.getByRole("button", { name: "Freeze" }).click();
    const ask = admin.page.getByRole("dialog", { name: "Freeze the account of Bob Durand?" });
    const field = ask.getByLabel("Reason, as the member will read it");
    // The hand goes to the reason: the dialog opens with the focus in it, and Freeze waits for it.
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await ask.getByRole("button", { name: "Freeze" }).isDisabled()).toBe(true);
    await field.fill(reason);
    await ask.getByRole("button", { name: "Freeze" }).click();
    await toastText(admin.page, "The account of Bob Durand is frozen");
    await row.getByText(`Frozen: ${reason}`).waitFor();
    await admin.page.getByRole("region", { name: "Audit log" }).getByText(`Account frozen: ${reason}`).waitFor();

    const alice = await signedIn(suite, "alice@example.com");
    const before = await movementsCount();
    // Told as soon as the amount is typed, under the field, and Send stays unavailable.
    const refused = await payBob(alice.page, "2.00");
    await refused.getByText("This account is frozen.").waitFor();
    expect(await refused.getByRole("button", { name: "Send", exact: true }).isDisabled()).toBe(true);
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
    fs.mkdirSync(SCREENS, { recursive: true });
    for (const scheme of ["light", "dark"] as const) {
      await bob.page.emulateMedia({ colorScheme: scheme });
      await bob.page.screenshot({ path: path.join(SCREENS, `frozen-dashboard-360-en-${scheme}.png`), fullPage: true });
    }
    await bob.context.close();

    await row.getByRole("button", { name: "Unfreeze" }).click();
    const confirm = admin.page.getByRole("dialog", { name: "Unfreeze the account of Bob Durand?" });
    expect(await confirm.locator("dl").innerText()).toContain(reason);
    await confirm.getByRole("button", { name: "Unfreeze" }).click();
    await toastText(admin.page, "The account of Bob Durand is no longer frozen");
    await admin.page.getByRole("region", { name: "Audit log" }).getByText(`Account unfrozen: ${reason}`).waitFor();
    // The wallets' list is asked again after the answer: its row loses the reason once it is back.
    await row.getByText(/^Frozen:/).waitFor({ state: "detached" });
    await admin.context.close();

    await alice.page.keyboard.press("Escape");
    await refused.waitFor({ state: "detached" });
    const step2 = await payBob(alice.page, "2.00");
    await sendPayment(alice.page, step2, "2.00", { ...CLICK, timeout: 20_000 });
    expect(await movementsCount()).toBe(before + 1);
    await alice.context.close();

    const again = await signedIn(suite, "bob@example.com");
    await accountsShown(again.page);
    expect(await frozenNotice(again.page).count()).toBe(0);
    await again.context.close();
  });
});
