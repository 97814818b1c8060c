import type { Locator, Page } from "playwright-core";
import { noticed } from "../support/noticed";
import { english, type Words } from "./words";

export { english, french, signInWords, type Words } from "./words";

/**
 * Moving around the app as a page model: the signed-in member's menu (behind the bottom bar's
 * Menu on a phone, under their name on a wide screen), a screen opened by its menu entry or by its
 * address, its title, a question answered; in English or in French (`t`), on a phone (`phone`:
 * tapped) or on a wide screen (clicked). Signing in is pages/members.ts's, in any language with
 * `signInWords`.
 */

export interface Way {
  /** On a phone: the bottom bar's Menu, and a tap for every press. A wide screen (the default) clicks. */
  phone?: boolean;
  /** The app's words in the page's language (English by default). */
  t?: Words;
}

/** The addresses of the login page and of a member's dashboard (what a measuring tool loads by itself). */
export const LOGIN_PAGE = "/";
export const DASHBOARD = "/dashboard";

/** A tap on a phone, a click on a wide screen. */
export const press = (l: Locator, phone = false) => (phone ? l.tap() : l.click());

/** Goes to `route` ("/admin/members") of the server the page is on, as typing its address would. */
export async function goTo(page: Page, route: string): Promise<void> {
  await page.goto(new URL(route, page.url()).href);
}

/**
 * Opens the signed-in member's menu: on a phone from the bottom bar's Menu, on a wide screen from
 * the button with their name (`member`) in the navigation bar.
 */
export async function openMenu(page: Page, member: string, opts: Way = {}): Promise<void> {
  const { phone = false, t = english } = opts;
  const button = phone
    ? page.getByRole("navigation", { name: t("Shortcuts") }).getByRole("button", { name: t("Menu") })
    : page.getByRole("navigation", { name: t("Main") }).getByRole("button", { name: member });
  await pressUntilOpen(page, button, phone);
}

/** An entry of the open menu, by its words ("Association settings"). */
export const menuEntry = (page: Page, entry: string, t: Words = english): Locator => page.getByRole("menuitem", { name: t(entry) });

/** Opens the member's menu and chooses `entry` in it; what it opens is the test's to wait for. */
export async function chooseFromMenu(page: Page, member: string, entry: string, opts: Way = {}): Promise<void> {
  await openMenu(page, member, opts);
  await press(menuEntry(page, entry, opts.t), opts.phone);
}

const menuIsOpen = (page: Page, timeout: number) =>
  page
    .waitForFunction(() => document.getElementById("user-menu")?.matches(":popover-open"), undefined, { timeout })
    .then(
      () => true,
      () => false,
    );

/** What the page held of the menu, its dialogs and the focus, and what it was told of taps lately (support/browser.ts). */
const pageState = (page: Page) =>
  page.evaluate(() => ({
    url: location.href,
    menu: document.getElementById("user-menu") ? "there, closed" : "not on the page",
    entries: document.querySelectorAll("#user-menu [role=menuitem]").length,
    focus: document.activeElement?.outerHTML.slice(0, 120),
    open: [...document.querySelectorAll("dialog[open], :popover-open")].map((d) => d.outerHTML.slice(0, 120)),
    input: (window as unknown as { __inputLog?: string[] }).__inputLog ?? [],
  }));

/**
 * Presses the user menu's button until the menu is open. Twice in CI runs on a loaded machine
 * (never here, under CPU throttling and busy loops) a press opened nothing and the step waited in
 * vain for an entry: a press that opened nothing within 10 s is written down with what the page
 * held and what it was told of the press (test-results/noticed/, printed at the end of the run),
 * and made once more, as a member would; a second one fails saying the same.
 */
async function pressUntilOpen(page: Page, button: Locator, phone: boolean): Promise<void> {
  await press(button, phone);
  if (await menuIsOpen(page, 10_000)) return;
  const first = await pageState(page);
  noticed("the user menu did not open when its button was pressed; pressed again", first);
  await press(button, phone);
  if (await menuIsOpen(page, 10_000)) return;
  throw new Error(`the user menu did not open after its button was pressed twice: ${JSON.stringify({ first, second: await pageState(page) })}`);
}

/** The screen's title, its one level-1 heading, named `title` in the page's language. */
export const screenTitle = (page: Page, title: string, t: Words = english): Locator => page.getByRole("heading", { level: 1, name: t(title) });

/** Opens the screen at `route` ("/preferences") by its address, once titled `title` in the page's language. */
export async function openScreen(page: Page, route: string, title: string, t: Words = english): Promise<void> {
  await goTo(page, route);
  await screenTitle(page, title, t).waitFor();
}

/** Opens the screen the menu's `entry` leads to, as a member does, and waits for its title, the entry's own words. */
export async function openFromMenu(page: Page, member: string, entry: string, opts: Way = {}): Promise<void> {
  await chooseFromMenu(page, member, entry, opts);
  await screenTitle(page, entry, opts.t).waitFor();
}

/** The question a dialog asks, answered with its button `button` ("Approve", "Cancel"). */
export async function answer(question: Locator, button: string, opts: Way = {}): Promise<void> {
  const { phone = false, t = english } = opts;
  await press(question.getByRole("button", { name: t(button), exact: true }), phone);
}

/** Whether the hand is on `l`: the element a key pressed now would act on. */
export const hasFocus = (l: Locator): Promise<boolean> => l.evaluate((el) => el === document.activeElement);
