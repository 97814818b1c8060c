import fs from "node:fs";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { toastText } from "./support/browser";
import { sql } from "./support/server";
import { signedIn, useSuite } from "./support/suite";
import { openPayment } from "./pages/payments";

const suite = useSuite();

const signInAs = (email: string) => signedIn(suite, email);

/** The balance shown on an account row of the dashboard, e.g. "271.90". */
async function balanceOf(page: Page, label: string | RegExp): Promise<string> {
  const row = page.locator(".accounts button.account").filter({ hasText: label }).first();
  return (await row.locator(".amount").innerText()).trim();
}

/** The payment step toward `name`, by click (a wide screen). */
const openPaymentTo = (page: Page, search: string, name: string) => openPayment(page, search, name, { touch: false });

describe("paying another member", () => {
  it("alice pays bob from her custodial account, sees the confirmation, adds him as favourite and sees the new balance", async () => {
    const { page, context, errors } = await signInAs("alice@example.com");
    expect(await balanceOf(page, "Main account")).toBe("271.90");
    const dialog = await openPaymentTo(page, "durand", "Bob Durand");
    await dialog.getByText("Available: 271.90 DL").waitFor();
    await dialog.getByLabel("Amount").fill("12,5");
    await dialog.getByLabel("Memo", { exact: true }).fill("Apples");
    // Enter in the memo never sends.
    await dialog.getByLabel("Memo", { exact: true }).press("Enter");
    await dialog.getByRole("button", { name: "Send", exact: true }).click();
    await dialog.getByRole("heading", { name: "Review the payment" }).waitFor();
    await dialog.getByText("12.50 DL").first().waitFor();
    await dialog.getByRole("button", { name: "Confirm and send" }).click();

    const confirmation = page.getByRole("dialog", { name: "Payment confirmation" });
    // Its head: the amount, the person, the memo and the time as one says it; the spec's exact date below.
    await confirmation.getByText("Sent 12.50 DL").waitFor();
    await confirmation.getByText("to Bob Durand").waitFor();
    expect(await confirmation.locator(".detail-when time").innerText()).toMatch(/^Today, \d{1,2}:\d{2}\s[AP]M$/);
    expect(await confirmation.locator(".detail-date").innerText()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    await confirmation.getByRole("button", { name: "Ok" }).click();

    const favorite = page.getByRole("dialog", { name: "Add as favorite" });
    await favorite.getByText("Do you want to add Bob Durand to your favorite list ?").waitFor();
    await favorite.getByRole("button", { name: "Add" }).click();
    await toastText(page, "Bob Durand was added to your favorite list");

    await page.waitForFunction(() => document.querySelector(".accounts button.account .amount")?.textContent === "259.40");
    const first = page.locator(".transactions .tx").first();
    await first.getByText("Apples").waitFor();
    await first.getByText("-12.50 DL").waitFor();

    // Bob is now a favourite: the empty search lists him, starred.
    await page.getByRole("button", { name: "Pay" }).click();
    const step1 = page.getByRole("dialog", { name: "Send money - 1/2" });
    await step1.getByRole("button", { name: "Favorite: Bob Durand" }).waitFor();
    expect(await step1.getByRole("button", { name: "Favorite: Bob Durand" }).getAttribute("aria-pressed")).toBe("true");
    await step1.getByRole("button", { name: "Close", exact: true }).click();
    expect(errors).toEqual([]);
    await context.close();

    // Bob sees the money arrive with the recipient memo.
    const bob = await signInAs("bob@example.com");
    await bob.page.locator(".transactions .tx").first().getByText("+12.50 DL").waitFor();
    await bob.page.locator(".transactions .tx").first().getByText("Alice Martin").waitFor();
    await bob.context.close();
  });

  it("alice pays carol from her ledger wallet: the wallet password is asked and the payment is split in two", async () => {
    const { page, context, errors } = await signInAs("alice@example.com");
    expect(await balanceOf(page, "Pledged account")).toBe("145.00");
    expect(await balanceOf(page, "Mutual credit")).toBe("-40.00");
    const dialog = await openPaymentTo(page, "carol", "Carol Petit");
    await dialog.getByLabel("Amount").fill("150");
    await dialog.getByText("Payment will be done in 2 transactions:").waitFor();
    await dialog.getByText("Pledged account: 145.00 DL").waitFor();
    await dialog.getByText("Mutual credit: 5.00 DL").waitFor();
    // Ledger wallets may give the recipient a memo of their own.
    await dialog.getByLabel("Memo", { exact: true }).fill("Guitar");
    await dialog.getByRole("switch", { name: "Use the same memo for the recipient" }).uncheck();
    await dialog.getByLabel("Memo for the recipient", { exact: true }).fill("Invoice 42");
    await dialog.getByRole("button", { name: "Send", exact: true }).click();
    await dialog.getByRole("button", { name: "Confirm and send" }).click();

    const auth = page.getByRole("dialog", { name: "Authentication" });
    await auth.getByLabel("Enter your wallet password").fill("not the wallet password");
    await auth.getByRole("button", { name: "Send" }).click();
    // Said once, in the dialog that asks again: no toast besides, to outlive the payment's success.
    await auth.getByRole("alert").getByText("Failed authentication. Please try again.").waitFor();
    expect(await page.locator("[data-sonner-toast]").filter({ hasText: "Failed authentication" }).count()).toBe(0);
    await auth.getByLabel("Enter your wallet password").fill("Demo1234!");
    await auth.getByRole("button", { name: "Send" }).click();

    const confirmation = page.getByRole("dialog", { name: "Payment confirmation" });
    await confirmation.getByText("Sent 150.00 DL").waitFor({ timeout: 30_000 });
    expect(await page.locator("[data-sonner-toast]").count()).toBe(0);
    await confirmation.getByText("Payment was done in 2 transactions:").waitFor();
    await confirmation.getByRole("button", { name: "Ok" }).click();
    await page.getByRole("dialog", { name: "Add as favorite" }).getByRole("button", { name: "Later" }).click();
    await page.waitForFunction(() =>
      [...document.querySelectorAll(".accounts button.account")].some((b) => b.textContent?.includes("Pledged account") && b.textContent.includes("0.00")),
    );
    expect(await balanceOf(page, "Pledged account")).toBe("0.00");
    expect(await balanceOf(page, "Mutual credit")).toBe("-45.00");
    expect(errors).toEqual([]);
    await context.close();

    const carol = await signInAs("carol@example.com");
    const tx = carol.page.locator(".transactions .tx").first();
    await tx.getByText("+150.00 DL").waitFor();
    await tx.getByText("Invoice 42").waitFor();
    await carol.context.close();
  });

  it("cancelling the password dialog stops the payment with 'Operation canceled' and moves nothing", async () => {
    const { page, context } = await signInAs("carol@example.com");
    const before = await balanceOf(page, "Wallet");
    const dialog = await openPaymentTo(page, "alice", "Alice Martin");
    await dialog.getByLabel("Amount").fill("1");
    await dialog.getByRole("button", { name: "Send", exact: true }).click();
    await dialog.getByRole("button", { name: "Confirm and send" }).click();
    await page.getByRole("dialog", { name: "Authentication" }).getByRole("button", { name: "Cancel" }).click();
    await toastText(page, "Operation canceled");
    await page.getByRole("dialog", { name: "Send money - 2/2" }).getByRole("button", { name: "Close", exact: true }).click();
    const refreshed = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/accounts" && r.request().method() === "GET");
    await page.getByRole("button", { name: "Refresh" }).click();
    await refreshed;
    await page.locator('section.accounts[aria-busy="false"]').waitFor(); // the answer is on screen
    expect(await balanceOf(page, "Wallet")).toBe(before);
    await context.close();
  });

  it("shows each amount and memo message for its input and keeps Send disabled", async () => {
    const { page, context } = await signInAs("bob@example.com");
    const dialog = await openPaymentTo(page, "alice", "Alice Martin");
    const amount = dialog.getByLabel("Amount");
    const send = dialog.getByRole("button", { name: "Send", exact: true });
    const cases: [string, string][] = [
      ["0", "Amount to send must be a number greater than 0"],
      ["abc", "Amount to send must be a number greater than 0"],
      ["1.234", "Amount to send must be a number with not more than 2 decimals"],
      ["70368744177664", "Amount to send is too large (<= 70,368,744,177,663.99)"],
      ["1e3", "Unexpected amount received. Try to reenter your amount, and if the problem persists please contact your administator."],
      ["100000", "Insufficient balance"],
    ];
    for (const [input, message] of cases) {
      await amount.fill(input);
      await dialog.getByText(message, { exact: true }).waitFor();
      expect(await send.isDisabled(), input).toBe(true);
    }
    await amount.fill("1.50");
    await dialog.getByLabel("Memo", { exact: true }).fill("x".repeat(51));
    await dialog.getByText("the message description is too long").waitFor();
    expect(await send.isDisabled()).toBe(true);
    await dialog.getByLabel("Memo", { exact: true }).fill("x".repeat(50));
    await page.waitForFunction(() => !(document.querySelector("dialog[open] .payment-step button[type=submit]") as HTMLButtonElement).disabled);
    await context.close();
  });

  it("refuses more than the balance with 'Insufficient balance' and moves nothing", async () => {
    const { page, context } = await signInAs("bob@example.com");
    const before = await balanceOf(page, "Main account");
    const dialog = await openPaymentTo(page, "alice", "Alice Martin");
    await dialog.getByLabel("Amount").fill(String(Number(before) + 0.01));
    await dialog.getByText("Insufficient balance", { exact: true }).waitFor();
    expect(await dialog.getByRole("button", { name: "Send", exact: true }).isDisabled()).toBe(true);
    await dialog.getByRole("button", { name: "Close", exact: true }).click();
    expect(await balanceOf(page, "Main account")).toBe(before);
    await context.close();
  });
});

describe("the transaction list", () => {
  it("narrows by recipient and by date on the server, and exports the range as the spec's CSV", async () => {
    const { page, context } = await signInAs("alice@example.com");
    await page.getByRole("button", { name: "See more" }).click();
    const modal = page.getByRole("dialog", { name: "All transactions" });
    const rows = modal.locator(".tx");
    await rows.first().waitFor();
    const all = await rows.count();
    expect(all).toBeGreaterThan(5);

    // Recipient filter: applies from 3 characters, by the counterparty's wallet. The searches the
    // app makes are seen on the wire: none for two characters, so no suggestion can come for them.
    const searched: string[] = [];
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (url.pathname === "/api/recipients") searched.push(url.searchParams.get("q") ?? "");
    });
    await modal.getByPlaceholder("All recipient").fill("bo");
    expect(await modal.locator(".suggestions button").count()).toBe(0);
    await modal.getByPlaceholder("All recipient").fill("bob");
    await modal.locator(".suggestions").getByRole("button", { name: "Bob Durand" }).click();
    expect(searched).toContain("bob");
    expect(searched.filter((q) => q.trim().length < 3)).toEqual([]);
    await page.waitForFunction(() => {
      const names = [...document.querySelectorAll("dialog[open] .tx .tx-related")].map((e) => e.textContent);
      return names.length > 0 && names.every((n) => n === "Bob Durand");
    });
    const bobOnly = await rows.count();
    expect(bobOnly).toBeLessThan(all);
    await modal.getByRole("button", { name: "All recipient" }).click();
    await page.waitForFunction((n) => document.querySelectorAll("dialog[open] .tx").length === n, all);

    // Date filter: today only (the payment to bob made by the first test).
    await modal.getByRole("button", { name: "Day", exact: true }).click();
    await page.waitForFunction(() => document.querySelectorAll("dialog[open] .tx").length < 5 && document.querySelectorAll("dialog[open] .tx").length > 0);
    const today = await rows.allInnerTexts();
    expect(today.some((t) => t.includes("Apples"))).toBe(true);
    expect(today.some((t) => t.includes("Jam"))).toBe(false);

    // The previous period is reachable, the next one is not (it is in the future).
    await modal.getByRole("button", { name: "Previous period" }).waitFor();
    expect(await modal.getByRole("button", { name: "Next period" }).count()).toBe(0);

    const [download] = await Promise.all([page.waitForEvent("download"), modal.getByRole("button", { name: "Download" }).click()]);
    const d = new Date();
    const day = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
    expect(download.suggestedFilename()).toBe(`transactions_${day}_${day}.csv`);
    const bytes = fs.readFileSync(await download.path());
    const text = bytes.toString("utf8");
    expect(text.startsWith('"Source","Target","Amount","Date","Description"\r\n')).toBe(true);
    expect(text.endsWith("\r\n")).toBe(true);
    const lines = text.split("\r\n").slice(1, -1);
    expect(lines.length).toBe(today.length);
    for (const line of lines) expect(line).toMatch(/^"[^"]+","[^"]+","-?\d+\.\d{2}","\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}","[^"]*"$/);
    expect(lines).toContain(lines.find((l) => l.startsWith('"Alice Martin","Bob Durand","-12.50"') && l.endsWith(',"Apples"')));
    await toastText(page, "Transaction list downloaded");
    await context.close();
  });

  it("opens the details of a transaction", async () => {
    const { page, context } = await signInAs("alice@example.com");
    await page.locator(".transactions .tx").filter({ hasText: "Apples" }).first().click();
    const details = page.getByRole("dialog", { name: "Transaction details" });
    await details.getByText("Sent 12.50 DL").waitFor();
    await details.getByText("to Bob Durand").waitFor();
    await details.getByRole("button", { name: "Ok" }).click();
    await context.close();
  });
});

describe("text typed by other members", () => {
  it("shows a memo full of HTML as plain text and runs nothing of it", async () => {
    const memo = `<img src=x onerror="window.__xss=1">`;
    const bob = await signInAs("bob@example.com");
    const dialog = await openPaymentTo(bob.page, "alice", "Alice Martin");
    await dialog.getByLabel("Amount").fill("1");
    await dialog.getByLabel("Memo", { exact: true }).fill(memo);
    await dialog.getByRole("button", { name: "Send", exact: true }).click();
    await dialog.getByRole("button", { name: "Confirm and send" }).click();
    const confirmation = bob.page.getByRole("dialog", { name: "Payment confirmation" });
    await confirmation.getByText("Sent 1.00 DL").waitFor();
    await bob.context.close();

    const alice = await signInAs("alice@example.com");
    const row = alice.page.locator(".transactions .tx").filter({ hasText: "Bob Durand" }).first();
    await row.getByText(memo, { exact: true }).waitFor();
    await row.click();
    await alice.page.getByRole("dialog", { name: "Transaction details" }).getByText(memo, { exact: true }).waitFor();
    expect(await alice.page.locator('img[src="x"]').count()).toBe(0);
    expect(await alice.page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(alice.errors).toEqual([]);
    await alice.context.close();
  });
});

describe("names that look alike", () => {
  it("shows beside each of two look-alike names when its member joined, and nothing beside a unique name", async () => {
    // "bob DURAND", who joined in March 2024, with an active wallet beside Bob's: written into the
    // database, as a member who signed up before names were compared would be.
    await sql(
      suite.server,
      `WITH bob AS (SELECT w.backend_id, b.currency_id FROM wallets w JOIN backends b ON b.id = w.backend_id JOIN members m ON m.id = w.member_id
                     WHERE m.email = 'bob@example.com' AND b.kind = 'custodial'),
            twin AS (INSERT INTO members (email, first_name, last_name, password_hash, search_text, name_key, created_at)
                     VALUES ('bob.twin@example.org', 'bob', 'DURAND', 'x', 'bob durand', 'bob durand', '2024-03-05T12:00:00Z') RETURNING id),
            w AS (INSERT INTO wallets (id, backend_id, member_id, status)
                  SELECT 'custodial:00112233445566778899', bob.backend_id, twin.id, 'active' FROM bob, twin RETURNING id)
       INSERT INTO accounts (wallet_id, currency_id, kind, floor) SELECT w.id, bob.currency_id, 'main', 0 FROM w, bob`,
    );
    const { page, context, errors } = await signInAs("alice@example.com");
    await page.getByRole("button", { name: "Pay" }).click();
    const dialog = page.getByRole("dialog", { name: "Send money - 1/2" });
    const search = dialog.getByPlaceholder("Name, email address or phone number");
    await search.fill("durand");
    await dialog
      .locator(".recipient")
      .filter({ hasText: /bob DURAND/ })
      .getByText("member since March 2024")
      .waitFor();
    expect(
      await dialog
        .locator(".recipient")
        .filter({ hasText: /Bob Durand/ })
        .locator(".name-hint")
        .innerText(),
    ).toMatch(/^member since \S+ \d{4}$/);
    await search.fill("carol");
    await dialog
      .locator(".recipient")
      .filter({ hasText: /Carol Petit/ })
      .first()
      .waitFor();
    expect(await dialog.locator(".name-hint").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
