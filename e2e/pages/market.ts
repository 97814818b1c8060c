import type { Locator, Page } from "playwright-core";
import { english, openFromMenu, press, screenTitle, type Words } from "./app";

/**
 * The marketplace as a page model: posting an offer, finding one by its words, paying it from its
 * page, in the page's language (`t`), by touch on a phone or by click on a wide screen.
 */
export interface MarketWay {
  phone?: boolean;
  t?: Words;
}

export interface OfferDraft {
  title: string;
  description: string;
  /** What is typed in Price ("12"). */
  price: string;
  category: string;
}

/** The marketplace, from the member's menu (`member`: their name on a wide screen). */
export async function openMarketplace(page: Page, member: string, way: MarketWay = {}): Promise<void> {
  await openFromMenu(page, member, "Marketplace", way);
}

/** Post an offer or a need, the form filled in, Post: on the offer's page, titled by it. */
export async function postOffer(page: Page, draft: OfferDraft, way: MarketWay = {}): Promise<Locator> {
  const { phone = false, t = english } = way;
  await press(page.getByRole("link", { name: t("Post an offer or a need") }), phone);
  await screenTitle(page, "Post an offer or a need", t).waitFor();
  await page.getByLabel(t("Title"), { exact: true }).fill(draft.title);
  await page.getByLabel(t("Category"), { exact: true }).selectOption(draft.category);
  await page.getByLabel(t("Description"), { exact: true }).fill(draft.description);
  await page.getByLabel(t("Price"), { exact: true }).fill(draft.price);
  await press(page.getByRole("button", { name: t("Post"), exact: true }), phone);
  const title = page.getByRole("heading", { level: 1, name: draft.title });
  await title.waitFor();
  return page.locator("article.offer");
}

/** `words` typed in the marketplace's search: the card of the offer titled `title`, once listed. */
export async function findOffer(page: Page, words: string, title: string, way: MarketWay = {}): Promise<Locator> {
  const { t = english } = way;
  // The list the words ask for, not the one shown while they are typed.
  const searched = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/market/offers" && new URL(r.url()).searchParams.get("q") === words);
  await page.getByRole("searchbox", { name: t("Search") }).fill(words);
  await searched;
  await page.locator(".offer-list[aria-busy=false]").waitFor();
  const card = page.locator(".offer-card").filter({ hasText: title });
  await card.waitFor();
  return card;
}

/** The offer's card opened: its page, titled by it. */
export async function openOffer(page: Page, card: Locator, title: string, way: MarketWay = {}): Promise<Locator> {
  await press(card.getByRole("link"), way.phone);
  await page.getByRole("heading", { level: 1, name: title }).waitFor();
  return page.locator("article.offer");
}

/** Pay on the offer's page: Send money's second step, filled in with the offer's price and title. */
export async function payOffer(page: Page, offer: Locator, way: MarketWay = {}): Promise<Locator> {
  const { phone = false, t = english } = way;
  await press(offer.getByRole("button", { name: t("Pay"), exact: true }), phone);
  const step2 = page.getByRole("dialog", { name: `${t("Send money")} - 2/2` });
  await step2.getByRole("button", { name: t("Send"), exact: true }).waitFor();
  return step2;
}

/** Send, then Confirm and send: the payment's confirmation. */
export async function sendOfferPayment(page: Page, step2: Locator, way: MarketWay = {}): Promise<Locator> {
  const { phone = false, t = english } = way;
  await press(step2.getByRole("button", { name: t("Send"), exact: true }), phone);
  await press(step2.getByRole("button", { name: t("Confirm and send") }), phone);
  const receipt = page.getByRole("dialog", { name: t("Payment confirmation") });
  await receipt.waitFor();
  return receipt;
}
