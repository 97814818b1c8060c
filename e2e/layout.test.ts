import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { newPage, signIn } from "./support/browser";
import { useSuite } from "./support/suite";

/**
 * Phone and desktop layouts (issue 8): the dashboard, Send money and the top-up dialog at
 * 360×640 and 1280×800 scroll only vertically and cut nothing off. Screenshots are kept in
 * test-results/layout/ to look at.
 */
const suite = useSuite();
const OUT = path.resolve(import.meta.dirname, "../test-results/layout");

/** Horizontal overflow of the page, and visible elements that stick out of the viewport. */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width) problems.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
    for (const el of document.querySelectorAll<HTMLElement>("main *, dialog[open] *, .navbar *")) {
      if (el.offsetParent === null && getComputedStyle(el).position !== "fixed") continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      // Something inside a horizontally scrolling container (a table) may extend; the page may not.
      let scroller = el.parentElement;
      while (scroller && !["auto", "scroll"].includes(getComputedStyle(scroller).overflowX)) scroller = scroller.parentElement;
      if (scroller) continue;
      if (r.left < -1 || r.right > width + 1)
        problems.push(
          `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? "").trim().slice(0, 25)}" spans ${Math.round(r.left)}–${Math.round(r.right)} of ${width}`,
        );
    }
    return problems.slice(0, 10);
  });
}

describe("layout on a phone and on a desktop", () => {
  for (const viewport of [
    { width: 360, height: 640 },
    { width: 1280, height: 800 },
  ]) {
    it(`${viewport.width}×${viewport.height}: dashboard, Send money and the top-up dialog fit`, async () => {
      fs.mkdirSync(OUT, { recursive: true });
      const { page, context, errors } = await newPage(suite.browser, { viewport });
      const shot = async (name: string) => {
        expect(await layoutProblems(page), name).toEqual([]);
        await page.screenshot({ path: path.join(OUT, `${name}-${viewport.width}x${viewport.height}.png`), fullPage: true });
      };
      await signIn(page, suite.server.url, "alice@example.com", "Demo1234!");
      await page.waitForURL(`${suite.server.url}/dashboard`);
      await page.getByRole("heading", { name: "Transactions" }).waitFor();
      await shot("dashboard");

      await page.getByRole("button", { name: "Pay" }).click();
      const send = page.getByRole("dialog", { name: "Send money - 1/2" });
      await send.getByPlaceholder("Name, email address or phone number").fill("durand");
      await send
        .getByRole("button", { name: /^Bob Durand/ })
        .first()
        .click();
      const step2 = page.getByRole("dialog", { name: "Send money - 2/2" });
      await step2.getByLabel("Amount").fill("12.50");
      await step2.getByLabel("Memo", { exact: true }).fill("A memo long enough to wrap on a phone");
      await shot("send-money");
      await page.keyboard.press("Escape");

      await page.getByRole("button", { name: "Top up" }).click();
      await page.getByRole("dialog", { name: "Top up my account" }).getByLabel("Amount").waitFor();
      await shot("top-up");
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
