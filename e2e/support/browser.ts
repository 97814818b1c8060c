import fs from "node:fs";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

/**
 * The browser the tests drive: CHROMIUM_PATH, else Debian's headless shell of Chromium (package
 * chromium-headless-shell: the same engine without the desktop browser around it, which is what
 * Playwright itself runs headless, and about a quarter less CPU a test), else Debian's Chromium.
 * Lighthouse keeps the whole browser (e2e/support/lighthouse.ts).
 */
export const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
export const CHROMIUM = "/usr/bin/chromium";
export const browserPath = () => process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM);

/** The flags this sandbox needs: headless, and no network beyond loopback. */
export const BROWSER_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/**
 * Debian's Chromium, with the flags this sandbox needs (no network beyond loopback). `full: true`
 * is the whole browser where the headless shell lacks what a test needs (it keeps notifications
 * denied whatever permission is granted: Web Push).
 */
export async function launchBrowser(opts: { full?: boolean } = {}): Promise<Browser> {
  return chromium.launch({ executablePath: opts.full ? (process.env.CHROMIUM_PATH ?? CHROMIUM) : browserPath(), args: BROWSER_ARGS });
}

/** The phone every layout is built for first: 360×740, touch, a mobile browser. */
/** A 1×1 PNG of a map's paper colour, which the map stretches to a tile. */
export const BLANK_TILE = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGN49+YZAAWMAsF6//N3AAAAAElFTkSuQmCC", "base64");

export const PHONE = { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true } as const;

/**
 * A fresh context (its own storage and cookies); page errors fail loudly instead of passing unseen.
 * `phone: true` makes it the 360×740 touch phone (tap with `locator.tap()`).
 *
 * The app's service worker is blocked unless `serviceWorkers: "allow"`: in every fresh context it
 * would install and fetch the whole app for offline use, a fifth of an e2e file's CPU, for
 * nothing the test looks at. The tests of what it does (offline starts, updates, push) allow it;
 * the app runs without one as it does where a browser refuses them.
 *
 * Pages ask for less motion, as some members do: dialogs, sheets and menus are in place as soon
 * as they are shown, with nothing to wait for between a tap and what it opens. The motion itself
 * is tested where it is looked at (phone-look), with `motion: "no-preference"` or emulateMedia.
 */
export async function newPage(
  browser: Browser,
  opts: {
    locale?: string;
    viewport?: { width: number; height: number };
    phone?: boolean;
    colorScheme?: "light" | "dark";
    timezoneId?: string;
    serviceWorkers?: "allow" | "block";
    motion?: "reduce" | "no-preference";
  } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    serviceWorkers: opts.serviceWorkers ?? "block",
    reducedMotion: opts.motion ?? "reduce",
    locale: opts.locale ?? "en-US",
    ...(opts.phone ? PHONE : { viewport: opts.viewport ?? { width: 1200, height: 800 } }),
    ...(opts.colorScheme ? { colorScheme: opts.colorScheme } : {}),
    ...(opts.timezoneId ? { timezoneId: opts.timezoneId } : {}),
  });
  // The map's default tiles are OpenStreetMap's: no test asks the Internet for them (a blank tile
  // instead; e2e/directory.test.ts serves tiles of its own on loopback).
  await context.route("https://tile.openstreetmap.org/**", (route) => route.fulfill({ contentType: "image/png", body: BLANK_TILE }));
  await context.addInitScript(recordInput);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  // Whatever the Content-Security-Policy blocks is a bug of the app (or an attack): it fails the test.
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/i.test(m.text())) errors.push(m.text());
    if (m.type() === "error" || m.type() === "warning") {
      const said = consoleLog.get(page) ?? [];
      consoleLog.set(page, [...said, `${m.type()}: ${m.text().slice(0, 300)}`].slice(-20));
    }
  });
  return { context, page, errors };
}

const consoleLog = new WeakMap<Page, string[]>();

/** The last errors and warnings the page wrote to its console (for what a test writes down when a step takes too long). */
export const consoleSaid = (page: Page): string[] => consoleLog.get(page) ?? [];

/** The text of the toast that appears (sonner renders toasts in an aria-live region). */
export async function toastText(page: Page, text: string | RegExp): Promise<void> {
  await page.locator("[data-sonner-toast]").filter({ hasText: text }).first().waitFor({ state: "visible", timeout: 10_000 });
}

export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** The document title, once the app has set it for the current route. */
export async function expectTitle(page: Page, title: string): Promise<void> {
  await page.waitForFunction((t) => document.title === t, title, { timeout: 10_000 });
}

/**
 * Run in every page before its own scripts: the last taps, clicks and popover toggles the page was
 * told of, with their time and target, kept in `window.__inputLog` for a step that failed to say
 * what happened (pages/app.ts).
 */
function recordInput() {
  const log: string[] = [];
  const start = performance.now();
  Object.assign(window, { __inputLog: log });
  const target = (e: Event) => {
    const el = e.target instanceof Element ? e.target : null;
    if (!el) return String(e.target);
    const label = el.getAttribute("aria-label");
    return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${label ? `[${label}]` : ""} "${(el.textContent ?? "").trim().slice(0, 30)}"`;
  };
  for (const type of ["pointerdown", "pointerup", "click", "contextmenu", "beforetoggle", "toggle"]) {
    document.addEventListener(
      type,
      (e) => {
        const state = "newState" in e ? ` ${(e as ToggleEvent).newState}` : "";
        log.push(`${Math.round(performance.now() - start)} ms ${type}${state} ${target(e)}`);
        if (log.length > 40) log.shift();
      },
      true,
    );
  }
}
