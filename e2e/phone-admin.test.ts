import { describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { toastText } from "./support/browser";
import { axeViolations, layoutProblems } from "./support/screen-checks";
import { sql } from "./support/server";
import { signedIn, useSuite } from "./support/suite";
import {
  askToApprove,
  auditEntry,
  consoleMember,
  consoleMembers,
  lists,
  openAccountRequests,
  openConsole,
  openCreditRequests,
  openMemberFromConsole,
  pageHeight,
  questionDetails,
  request,
  saveLimits,
  walletCard,
} from "./pages/admin";
import { answer, press, screenTitle } from "./pages/app";

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

/** A console line's parts as shown, one text each (the chevron aside). */
const lineParts = (line: Locator) => line.locator(":scope > span").evaluateAll((parts) => parts.map((p) => (p as HTMLElement).innerText.trim()));

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

    // The console: people and currencies by name, never a backend id or a member id; a few screens tall.
    await openConsole(page);
    await lists(page, 4);
    const carol = consoleMember(page, "Carol Petit");
    expect(await lineParts(carol)).toEqual(["Carol Petit", "Demo Lokal · signed wallet", "125.00 DL"]);
    await auditEntry(page, "Wallet approved", "Dan Pending").waitFor();
    await auditEntry(page, "Top-up approved", "Alice Martin").waitFor();
    const text = await page.locator("body").innerText();
    expect(text).not.toMatch(/custodial:|ledger:|member:/);
    expect(await noSidewaysScroll(page)).toBe(true);
    expect(await pageHeight(page)).toBeLessThan(3000);
    // With lines in each list (the audit log's too, which the screens' tour sees empty): nothing cut, covered or unreadable.
    expect(await layoutProblems(page)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    // The balances line up: figures of one width, at the lines' end.
    const ends = await consoleMembers(page)
      .locator(".row-amount")
      .evaluateAll((amounts) => amounts.map((a) => Math.round(a.getBoundingClientRect().right)));
    expect(new Set(ends).size).toBe(1);
    expect(
      await consoleMembers(page)
        .locator(".row-amount")
        .first()
        .evaluate((a) => getComputedStyle(a).fontVariantNumeric),
    ).toBe("tabular-nums");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("admin@ finds Carol in the console as she types, opens her page, lowers her mutual credit floor and sees it saved; the audit log says so", async () => {
    const { page, context, errors } = await signedIn(suite, "admin@example.com", "Demo1234!", { phone: true });
    await openConsole(page);
    // Typed a letter at a time: the lines follow the text.
    const search = consoleMembers(page).getByRole("searchbox", { name: "Search a member" });
    await search.pressSequentially("pet");
    await consoleMember(page, "Carol Petit").waitFor();
    await page.waitForFunction(() => document.querySelectorAll(".wallet-list li").length === 1);
    await openMemberFromConsole(page, "petit", "Carol Petit", PHONE);
    const card = walletCard(page, "Demo Lokal · signed wallet");
    expect(await card.getByLabel("Mutual credit floor").inputValue()).toBe("-100.00");
    await saveLimits(card, { floor: "-150.00" }, PHONE);
    await toastText(page, "Limits of Carol Petit saved");
    const floor = await sql(
      suite.server,
      "SELECT a.floor::text FROM accounts a JOIN wallets w ON w.id = a.wallet_id JOIN members m ON m.id = w.member_id WHERE m.email = 'carol@example.com' AND a.kind = 'cm'",
    );
    expect(floor).toEqual([{ floor: "-15000" }]);
    expect(await noSidewaysScroll(page)).toBe(true);
    // The way back leads to the console as it was left, the search still there; the audit log says who changed what.
    await press(page.getByRole("main").getByRole("link", { name: "Administration", exact: true }), true);
    await screenTitle(page, "Administration").waitFor();
    expect(await consoleMembers(page).getByRole("searchbox", { name: "Search a member" }).inputValue()).toBe("petit");
    await auditEntry(page, "Limits changed", "Carol Petit", "Ada Admin").waitFor();
    // Her page, opened again, has the new floor.
    await press(consoleMember(page, "Carol Petit"), true);
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>(".limits-form input")?.value === "-150.00");
    expect(errors).toEqual([]);
    await context.close();
  });
});
