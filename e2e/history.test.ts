import fs from "node:fs";
import { describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { signedIn, useSuite } from "./support/suite";

/**
 * The history ("All transactions") on a 360×740 touch phone (issue 18: item 3): typed filters
 * filter, and the CSV holds exactly the rows shown.
 */
const suite = useSuite();

async function openHistory(page: Page): Promise<Locator> {
  await page.getByRole("button", { name: "See more" }).tap();
  const modal = page.getByRole("dialog", { name: "All transactions" });
  await modal.locator(".tx").first().waitFor();
  return modal;
}

/** Each row as the screen shows it: amount (as the CSV writes it), counterparty's full name, memo. */
async function shownRows(modal: Locator): Promise<string[][]> {
  return modal
    .locator(".tx")
    .evaluateAll((rows) =>
      rows.map((r) => [
        (r.querySelector(".tx-amount")?.textContent ?? "").replace(/[^\d.-]/g, ""),
        r.querySelector(".tx-related")?.getAttribute("title") ?? "",
        r.querySelector(".tx-memo")?.textContent ?? "",
      ]),
    );
}

/** Waits until the list has settled on rows that all pass `test` (and at least one). */
async function listSettles(modal: Locator, test: (row: string[]) => boolean): Promise<string[][]> {
  let rows: string[][] = [];
  await expect
    .poll(
      async () => {
        if ((await modal.locator(".tx-list").getAttribute("aria-busy")) === "true") return false;
        rows = await shownRows(modal);
        return rows.length > 0 && rows.every(test);
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return rows;
}

/** Downloads the CSV and answers its rows as [amount, counterparty, description], the member being `me`. */
async function downloadedRows(page: Page, modal: Locator, me: string): Promise<string[][]> {
  const [download] = await Promise.all([page.waitForEvent("download"), modal.getByRole("button", { name: "Download" }).tap()]);
  const text = fs.readFileSync(await download.path(), "utf8");
  const lines = text.split("\r\n").slice(1, -1);
  return lines.map((line) => {
    const [source, target, amount, , description] = JSON.parse(`[${line}]`) as string[];
    return [amount!, source === me ? target! : source!, description!];
  });
}

describe("the history on a phone", () => {
  it("filters by a recipient's name typed without picking a suggestion, and the CSV holds exactly the rows shown", async () => {
    const { page, context, errors } = await signedIn(suite, "alice@example.com", "Demo1234!", { phone: true });
    const modal = await openHistory(page);
    const all = await listSettles(modal, () => true);
    expect(all.some((r) => r[1] !== "Bob Durand")).toBe(true);

    await modal.getByLabel("Recipient").fill("durand");
    const bob = await listSettles(modal, (r) => r[1] === "Bob Durand");
    expect(bob.length).toBeGreaterThan(1);
    expect(bob.length).toBe(all.filter((r) => r[1] === "Bob Durand").length);

    expect(await downloadedRows(page, modal, "Alice Martin")).toEqual(bob);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("searches memos and amounts, and the CSV holds exactly the rows found", async () => {
    const { page, context, errors } = await signedIn(suite, "alice@example.com", "Demo1234!", { phone: true });
    const modal = await openHistory(page);
    const search = modal.getByRole("searchbox", { name: "Search" });

    // A memo word, any case.
    await search.fill("BREAD");
    const bread = await listSettles(modal, (r) => r[2] === "Bread");
    expect(bread).toEqual([["-8.20", "Bob Durand", "Bread"]]);
    expect(await downloadedRows(page, modal, "Alice Martin")).toEqual(bread);

    // An amount with a decimal comma, as a French member types it.
    await search.fill("12,50");
    const basket = await listSettles(modal, (r) => r[0] === "-12.50");
    expect(basket).toEqual([["-12.50", "Bob Durand", "Vegetable basket"]]);
    expect(await downloadedRows(page, modal, "Alice Martin")).toEqual(basket);

    // Search and recipient together.
    await search.fill("fire");
    await modal.getByLabel("Recipient").fill("bob");
    const firewood = await listSettles(modal, (r) => r[2] === "Firewood");
    expect(firewood).toEqual([["45.00", "Bob Durand", "Firewood"]]);
    expect(await downloadedRows(page, modal, "Alice Martin")).toEqual(firewood);
    expect(errors).toEqual([]);
    await context.close();
  });
});
