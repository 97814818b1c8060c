import { describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { toastText } from "./support/browser";
import { signedIn, useSuite } from "./support/suite";
import { askToApprove, auditEntry, consoleMember, openAccountRequests, openConsole, openCreditRequests, questionDetails, request } from "./pages/admin";
import { answer } from "./pages/app";

const suite = useSuite();

/** The column name a phone shows above a cell (AdminTable's `--col-N`, the cell's ::before). */
const cellLabel = (cell: Locator) => cell.evaluate((td) => getComputedStyle(td, "::before").content.replace(/^"|"$/g, ""));

/** Each cell of the row's card, as "label: text" (actions left out). */
async function card(row: Locator): Promise<string[]> {
  const cells = row.locator("td:not(.actions)");
  const out: string[] = [];
  for (let i = 0; i < (await cells.count()); i++) out.push(`${await cellLabel(cells.nth(i))}: ${(await cells.nth(i).innerText()).trim()}`);
  return out;
}

/** Every press is a tap. */
const PHONE = { phone: true };

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe("an administrator on a phone", () => {
  it("admin@ approves a pending account and a credit request, each after a question naming the member; the lists show who, e-mail, date, amount and reference, and no backend id", async () => {
    const { page, context, errors } = await signedIn(suite, "admin@example.com", "Demo1234!", { phone: true });

    // Account requests: Dan's seeded wallet, as a card labelled by column.
    await openAccountRequests(page);
    const dan = request(page, "Dan Pending");
    await dan.waitFor();
    const danCard = await card(dan);
    expect(danCard.slice(0, 3)).toEqual(["User: Dan Pending", "Email: dan@example.com", "Wallet: Demo Lokal"]);
    expect(danCard[3]).toMatch(/^Requested on: \S+/);
    expect(await noSidewaysScroll(page)).toBe(true);
    const ask = await askToApprove(page, dan, "Approve this wallet request?", PHONE);
    expect(await questionDetails(ask)).toMatch(/User\s+Dan Pending\s+Email\s+dan@example\.com\s+Wallet\s+Demo Lokal/);
    // Cancel first: nothing happens.
    await answer(ask, "Cancel", PHONE);
    await ask.waitFor({ state: "detached" });
    await dan.waitFor();
    await answer(await askToApprove(page, dan, "Approve this wallet request?", PHONE), "Approve", PHONE);
    await toastText(page, "User Dan Pending's account creation was approved or discarded");
    await toastText(page, "Approved: Dan Pending, Demo Lokal");
    await dan.waitFor({ state: "detached" });

    // Credit requests: Alice's seeded 25.00 DL top-up, with its reference.
    await openCreditRequests(page);
    const alice = request(page, "MU-DEMO2-ALICE");
    await alice.waitFor();
    const aliceCard = await card(alice);
    expect(aliceCard.slice(0, 3)).toEqual(["User: Alice Martin", "Email: alice@example.com", "Amount: 25.00 DL"]);
    expect(aliceCard[3]).toMatch(/^Date: \S+/);
    expect(aliceCard[4]).toBe("Reference: MU-DEMO2-ALICE");
    expect(await noSidewaysScroll(page)).toBe(true);
    const credit = await askToApprove(page, alice, "Approve 25.00 DL for Alice Martin?", PHONE);
    expect(await questionDetails(credit)).toMatch(/User\s+Alice Martin\s+Email\s+alice@example\.com\s+Amount\s+25\.00 DL\s+Reference\s+MU-DEMO2-ALICE/);
    await answer(credit, "Approve", PHONE);
    await toastText(page, "Top up request from Alice Martin of 25.00 DL was validated");
    await alice.waitFor({ state: "detached" });

    // The console: people and currencies by name, never a backend id or a member id.
    await openConsole(page);
    const carol = consoleMember(page, "Carol Petit");
    await carol.waitFor();
    expect((await card(carol)).slice(0, 3)).toEqual(["User: Carol Petit", "Email: carol@example.com", "Wallet: Demo Lokal · signed wallet"]);
    await auditEntry(page, "Wallet approved", "Dan Pending").waitFor();
    await auditEntry(page, "Top-up approved", "Alice Martin").waitFor();
    const text = await page.locator("body").innerText();
    expect(text).not.toMatch(/custodial:|ledger:|member:/);
    expect(await noSidewaysScroll(page)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
