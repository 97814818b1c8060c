import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { newPage, toastText } from "./support/browser";
import { layoutProblems } from "./support/screen-checks";
import { useSuite } from "./support/suite";
import { english, french, openScreen, signInWords, type Words } from "./pages/app";
import { signIn } from "./pages/members";
import { findOffer, openMarketplace, openOffer, payOffer, postOffer, sendOfferPayment } from "./pages/market";

/**
 * The marketplace, as members use it, on a phone (360×740) and a wide screen (1280×800), in
 * English and in French: Bob posts an offer, Alice finds it by a word of it, pays it from its
 * page (Send money filled in with its price and title), and Bob is told, live and in his bell.
 */
const suite = useSuite();
const SCREENS = path.resolve(import.meta.dirname, "../test-results/screens");
fs.mkdirSync(SCREENS, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENS, `${name}.png`) });

async function member(email: string, phone: boolean, t: Words, lang: string, landing = "/dashboard") {
  const s = await newPage(suite.browser, { locale: lang, ...(phone ? { phone: true } : { viewport: { width: 1280, height: 800 } }) });
  await signIn(s.page, suite.server.url, email, "Demo1234!", signInWords(t));
  await s.page.waitForURL((u) => u.pathname.startsWith(landing));
  return s;
}

// A phone in English and a wide screen in French walk both sizes and both languages (the
// screens tour looks at the marketplace in all four).
const CASES = [
  { phone: true, lang: "en-US", t: english, title: "Organic eggs", word: "EGGS", amount: "12.00 DL" },
  { phone: false, lang: "fr-FR", t: french, title: "Pot de miel", word: "MIEL", amount: "12,00 DL" },
] as const;

describe("the marketplace", () => {
  for (const c of CASES) {
    const where = `${c.phone ? "360×740" : "1280×800"} ${c.lang}`;
    it(`${where}: Bob posts an offer, Alice finds it by search and pays it from its page, and Bob is told`, async () => {
      const way = { phone: c.phone, t: c.t };
      const bob = await member("bob@example.com", c.phone, c.t, c.lang);
      const alice = await member("alice@example.com", c.phone, c.t, c.lang);

      await openMarketplace(bob.page, "Bob Durand", way);
      await postOffer(bob.page, { title: c.title, description: "Fresh, from the farm", price: "12", category: "food" }, way);
      expect(await bob.page.getByText(c.amount).first().isVisible()).toBe(true);

      await openMarketplace(alice.page, "Alice Martin", way);
      const card = await findOffer(alice.page, c.word, c.title, way);
      // Found by its word alone: the demo's other offers are not listed.
      expect(await alice.page.locator(".offer-card").filter({ hasText: "Vegetable basket" }).count()).toBe(0);
      const tag = `market-${c.phone ? 360 : 1280}-${c.lang}`;
      await shot(alice.page, `${tag}-list`);
      const offer = await openOffer(alice.page, card, c.title, way);
      await offer.getByText("Bob Durand").waitFor();
      await shot(alice.page, `${tag}-offer`);
      expect(await layoutProblems(alice.page)).toEqual([]);

      const step2 = await payOffer(alice.page, offer, way);
      // Filled in with the offer's price and title, both the member's to change.
      expect(await step2.getByLabel(c.t("Amount"), { exact: true }).inputValue()).toBe(c.amount.replace(" DL", ""));
      expect(await step2.getByLabel(c.t("Memo"), { exact: true }).inputValue()).toBe(c.title);
      await shot(alice.page, `${tag}-pay`);
      await sendOfferPayment(alice.page, step2, way);

      // Bob is told at once of the money, and the bell says which offer it paid.
      await toastText(bob.page, c.t("Received {amount} from {name}", { amount: c.amount, name: "Alice Martin" }));
      const told = c.t("{name} paid {amount} for your offer “{title}”", { name: "Alice Martin", amount: c.amount, title: c.title });
      await openScreen(bob.page, "/notifications", "Notifications", c.t);
      await bob.page.getByText(told).first().waitFor();
      await shot(bob.page, `${tag}-told`);
      expect([...bob.errors, ...alice.errors]).toEqual([]);
      await Promise.all([bob.context.close(), alice.context.close()]);
    });
  }

  it("Carol reports an offer, an account administrator hides it from the reported offers, and it leaves the list", async () => {
    const way = { phone: true, t: english };
    const carol = await member("carol@example.com", true, english, "en-US");
    await openMarketplace(carol.page, "Carol Petit", way);
    const offer = await openOffer(carol.page, await findOffer(carol.page, "bicycle", "Bicycle repair", way), "Bicycle repair", way);
    await offer.getByRole("button", { name: "Report", exact: true }).tap();
    const report = carol.page.getByRole("dialog", { name: "Report this offer" });
    await report.getByLabel("Reason").fill("Not a real offer");
    await report.getByRole("button", { name: "Report", exact: true }).tap();
    await offer.getByText("You reported this offer.").waitFor();

    const axel = await member("accounts@example.com", true, english, "en-US", "/admin");
    await openMarketplace(axel.page, "Axel Accounts", way);
    await axel.page.getByRole("link", { name: "Reported", exact: true }).tap();
    const reported = axel.page.locator(".offer-card").filter({ hasText: "Bicycle repair" });
    await reported.getByText("Not a real offer").waitFor();
    await shot(axel.page, "market-360-en-US-reports");
    await reported.getByRole("link").tap();
    await axel.page.getByRole("heading", { level: 1, name: "Bicycle repair" }).waitFor();
    await axel.page.getByRole("button", { name: "Hide", exact: true }).tap();
    const hide = axel.page.getByRole("dialog", { name: "Hide this offer" });
    await hide.getByLabel("Reason").fill("Reported by a member");
    await hide.getByRole("button", { name: "Hide", exact: true }).tap();
    await axel.page.getByText("Hidden by the association").waitFor();

    await openMarketplace(carol.page, "Carol Petit", way);
    await carol.page.getByRole("searchbox", { name: "Search" }).fill("bicycle");
    await carol.page.getByText("Nothing found.").waitFor();
    expect([...carol.errors, ...axel.errors]).toEqual([]);
    await Promise.all([carol.context.close(), axel.context.close()]);
  });
});
