import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Locator, Page } from "playwright-core";
import { BLANK_TILE } from "../support/browser";
import { english, press, type Words } from "./app";
import { apiSession } from "./members";

/**
 * The association's map and directory as a page model: what a visitor, a member, an account
 * administrator and an owner do with it. Words are English unless a test passes its `t`.
 */

export interface Way {
  phone?: boolean;
  t?: Words;
}

/** The map's list of businesses. */
export const businessList = (page: Page, t: Words = english): Locator => page.getByRole("region", { name: t("Businesses") });

/** The businesses the list shows, by their names. */
export const listedNames = (page: Page, t: Words = english): Promise<string[]> => businessList(page, t).locator(".directory-item-name").allInnerTexts();

/** Waits until the list says it shows `count` businesses. */
export async function showsCount(page: Page, count: number, t: Words = english): Promise<void> {
  await businessList(page, t).getByText(t("Businesses shown: {count}", { count }), { exact: true }).waitFor();
}

/** The markers and clusters on the map (a cluster stands for several businesses). */
export const markers = (page: Page): Locator => page.locator(".leaflet-marker-icon");

/** The map's tiles once drawn. */
export const loadedTiles = (page: Page): Locator => page.locator("img.leaflet-tile-loaded");

export async function filterByCategory(page: Page, category: string, t: Words = english): Promise<void> {
  await page.getByLabel(t("Category"), { exact: true }).selectOption({ label: category });
}

export async function onlyOpenNow(page: Page, opts: Way = {}): Promise<void> {
  const { phone = false, t = english } = opts;
  await press(page.getByRole("checkbox", { name: t("Open now") }), phone);
}

export async function searchDirectory(page: Page, words: string, t: Words = english): Promise<void> {
  await page.getByRole("searchbox", { name: t("Search a business") }).fill(words);
}

/** A business's page, opened from the list: its heading there. */
export async function openBusiness(page: Page, name: string, opts: Way = {}): Promise<Locator> {
  const { phone = false, t = english } = opts;
  await press(businessList(page, t).getByRole("link", { name: new RegExp(`^${name}`) }), phone);
  const heading = page.getByRole("heading", { level: 1, name });
  await heading.waitFor();
  return heading;
}

/**
 * Pay on a business's page: a visitor is asked to sign in first (`as`), then Send money's second
 * step opens with the business's member chosen, where the amount is typed and the payment sent.
 */
export async function payBusiness(page: Page, amount: string, as: { email: string; password: string } | null, opts: Way = {}): Promise<Locator> {
  const { phone = false, t = english } = opts;
  await press(page.getByRole("link", { name: t(as ? "Sign in to pay" : "Pay"), exact: true }), phone);
  if (as) {
    await page.getByLabel(t("Email")).fill(as.email);
    await page.getByLabel(t("Password"), { exact: true }).fill(as.password);
    await press(page.getByRole("button", { name: t("Sign in"), exact: true }), phone);
  }
  const step2 = page.getByRole("dialog", { name: t("Send money - {step}/{steps}", { step: 2, steps: 2 }) });
  await step2.getByLabel(t("Amount")).fill(amount);
  return step2;
}

/** Send, then Confirm and send: the confirmation, once it says what was sent. */
export async function sendToBusiness(page: Page, step2: Locator, sent: string, opts: Way = {}): Promise<Locator> {
  const { phone = false, t = english } = opts;
  await press(step2.getByRole("button", { name: t("Send"), exact: true }), phone);
  await press(step2.getByRole("button", { name: t("Confirm and send") }), phone);
  const receipt = page.getByRole("dialog", { name: t("Payment confirmation") });
  await receipt.getByText(sent).waitFor();
  return receipt;
}

export interface BusinessDraft {
  name: string;
  category: string;
  description: string;
  address: string;
}

/**
 * The member's own business profile (their profile's link), filled in and asked for: the pin
 * placed by a tap on the map, Monday's hours ticked. Answers once the request is sent.
 */
export async function askForBusinessProfile(page: Page, draft: BusinessDraft, opts: Way = {}): Promise<void> {
  const { phone = false, t = english } = opts;
  await press(page.getByRole("link", { name: t("My business on the map") }), phone);
  await page.getByRole("heading", { level: 1, name: t("My business") }).waitFor();
  await page.getByLabel(t("Public name")).fill(draft.name);
  await page.getByLabel(t("Category"), { exact: true }).selectOption({ label: draft.category });
  await page.getByLabel(t("Short description")).fill(draft.description);
  await page.getByLabel(t("Address"), { exact: true }).fill(draft.address);
  await placePin(page, opts);
  const monday = page.locator(".hours-editor .hours-row").first().getByRole("checkbox");
  await press(monday, phone);
  await press(page.getByRole("button", { name: t("Ask for a business profile") }), phone);
  await page.getByText(t("Your request waits for an administrator's approval.")).waitFor();
}

/** A tap on the middle of the map: the pin is there, its coordinates in the fields. */
export async function placePin(page: Page, opts: Way = {}): Promise<{ lat: string; lon: string }> {
  const { phone = false, t = english } = opts;
  const map = page.getByRole("region", { name: t("Map: tap where the business is") });
  await loadedTiles(page).first().waitFor();
  await map.scrollIntoViewIfNeeded();
  const box = (await map.boundingBox())!;
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  if (phone) await page.touchscreen.tap(at.x, at.y);
  else await page.mouse.click(at.x, at.y);
  const lat = page.getByLabel(t("Latitude"));
  await page.waitForFunction((el) => (el as HTMLInputElement).value !== "", await lat.elementHandle());
  return { lat: await lat.inputValue(), lon: await page.getByLabel(t("Longitude")).inputValue() };
}

/** On the account requests, the business profile asked under `name`: Approve, and its question answered. */
export async function approveBusinessProfile(page: Page, name: string, opts: Way = {}): Promise<void> {
  const { phone = false, t = english } = opts;
  const section = page.getByRole("region", { name: t("Business profiles") });
  await press(
    section
      .getByRole("listitem")
      .filter({ hasText: name })
      .getByRole("button", { name: t("Approve") }),
    phone,
  );
  const question = page.getByRole("dialog", { name: t("Approve this business profile?") });
  await press(question.getByRole("button", { name: t("Approve") }), phone);
  await section.getByRole("listitem").filter({ hasText: name }).waitFor({ state: "detached" });
}

/** A tile server on loopback: every tile the same blank image, and how many were asked for. */
export async function startTileServer(): Promise<{ url: string; template: string; asked: () => number; close: () => Promise<void> }> {
  let asked = 0;
  const server = http.createServer((req, res) => {
    asked += /^\/\d+\/\d+\/\d+\.png$/.test(req.url ?? "") ? 1 : 0;
    res.writeHead(200, { "content-type": "image/png", "cache-control": "no-store" }).end(BLANK_TILE);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, template: `${url}/{z}/{x}/{y}.png`, asked: () => asked, close: () => new Promise((r) => server.close(() => r())) };
}

/** An owner's change of the directory's settings through the API, every instance having it once config.json says so. */
export async function setDirectorySettings(baseUrl: string, change: { tileUrl?: string; tileAttribution?: string; embedOrigins?: string[] }): Promise<void> {
  const { token } = await apiSession(baseUrl, "admin@example.com");
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const now = (await (await fetch(`${baseUrl}/api/admin/directory`, { headers })).json()) as Record<string, unknown>;
  const body = { ...now, ...change };
  const saved = await fetch(`${baseUrl}/api/admin/directory`, { method: "PUT", headers, body: JSON.stringify(body) });
  if (!saved.ok) throw new Error(`directory settings refused: ${await saved.text()}`);
  for (;;) {
    const config = (await (await fetch(`${baseUrl}/config.json`)).json()) as { directory?: Record<string, unknown> };
    if (Object.entries(change).every(([k, v]) => JSON.stringify(config.directory?.[k]) === JSON.stringify(v))) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** In the association's settings, a category added to the directory's list in both languages, and saved. */
export async function addCategory(page: Page, en: string, fr: string, opts: Way = {}): Promise<void> {
  const { phone = false, t = english } = opts;
  const form = page.getByRole("form", { name: t("Map and directory") });
  await press(form.getByRole("button", { name: t("Add a category") }), phone);
  await form.getByLabel(t("In English")).last().fill(en);
  await form.getByLabel(t("In French")).last().fill(fr);
  await press(form.getByRole("button", { name: t("Save the map and directory") }), phone);
  await page.getByText(t("The directory's settings are saved.")).waitFor();
}

/** The board's figure of the directory, on the figures' page: its lines as "term: value". */
export async function businessFigures(page: Page, t: Words = english): Promise<Record<string, string>> {
  const card = page.getByRole("region", { name: t("Businesses") });
  await card.locator("dd").first().waitFor();
  const terms = await card.locator("dt").allInnerTexts();
  const values = await card.locator("dd").allInnerTexts();
  return Object.fromEntries(terms.map((term, i) => [term, values[i] ?? ""]));
}
