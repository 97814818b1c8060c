import AxeBuilder from "@axe-core/playwright";
import { describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { newPage, signIn } from "./support/browser";
import { signedIn, useSuite } from "./support/suite";

/**
 * Accessibility (issue 8): axe-core finds nothing on any route or modal; dialogs trap focus,
 * give it back and close with Escape; a payment can be made with the keyboard alone; <html lang>
 * follows the language; zoom stays allowed; touch targets are 44 px; toasts are announced; dark
 * mode and reduced motion are honoured.
 */
const suite = useSuite();

/** WCAG 2.2 A/AA and best practices: every violation is listed with where it is. */
async function expectNoViolations(page: Page, where: string, include?: string) {
  let builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]);
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  const found = violations.map((v) => `${where}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
  expect(found).toEqual([]);
}

const dialog = (page: Page, name: string) => page.getByRole("dialog", { name });

describe("axe-core on every route", () => {
  it("signed out: login, map, sign-up and reset", async () => {
    const { page, context } = await newPage(suite.browser);
    for (const path of ["/", "/carto", "/signup", "/reset-password"]) {
      await page.goto(suite.server.url + path, { waitUntil: "networkidle" });
      await expectNoViolations(page, path);
    }
    await context.close();
  });

  it("signed in: dashboard, preferences, wallet creation, and the administrators' screens", async () => {
    for (const [who, paths] of [
      ["alice@example.com", ["/dashboard", "/preferences"]],
      ["dan@example.com", ["/dashboard", "/create-account"]],
      ["admin@example.com", ["/admin/pending-accounts", "/admin/pending-credits", "/admin"]],
    ] as const) {
      const { page, context } = await signedIn(suite, who);
      for (const path of paths) {
        await page.goto(suite.server.url + path, { waitUntil: "networkidle" });
        await page.locator("main h1").first().waitFor();
        await expectNoViolations(page, `${who} ${path}`);
      }
      await context.close();
    }
  });
});

describe("axe-core on every modal", () => {
  it("payments, requests, QR code, top-up, history, details, reconversion, authentication, about", async () => {
    const { page, context } = await signedIn(suite, "alice@example.com");
    const check = async (d: Locator, name: string) => {
      await d.waitFor();
      await expectNoViolations(page, name, "dialog[open]");
    };

    await page.getByRole("button", { name: "Pay" }).click();
    const send1 = dialog(page, "Send money - 1/2");
    await send1.getByPlaceholder("Name, email address or phone number").fill("durand");
    await send1
      .getByRole("button", { name: /^Bob Durand/ })
      .first()
      .waitFor();
    await check(send1, "Send money - 1/2");
    await send1
      .getByRole("button", { name: /^Bob Durand/ })
      .first()
      .click();
    const send2 = dialog(page, "Send money - 2/2");
    await send2.getByLabel("Amount").fill("1");
    await check(send2, "Send money - 2/2");
    await send2.getByRole("button", { name: "Send", exact: true }).click();
    await send2.getByRole("heading", { name: "Review the payment" }).waitFor();
    await check(send2, "Send money review");
    await send2.getByRole("button", { name: "Confirm and send" }).click();
    await check(dialog(page, "Payment confirmation"), "Payment confirmation");
    await dialog(page, "Payment confirmation").getByRole("button", { name: "Ok" }).click();
    await check(dialog(page, "Add as favorite"), "Add as favorite");
    await dialog(page, "Add as favorite").getByRole("button", { name: "Later" }).click();

    await page.getByRole("button", { name: "Request" }).click();
    const req1 = dialog(page, "Request money - 1/2");
    await req1.getByLabel("Amount").fill("2");
    await check(req1, "Request money - 1/2");
    await req1.getByRole("button", { name: "Generate QR code" }).click();
    await check(dialog(page, "Request money - 2/2"), "Request money - 2/2");
    await page.keyboard.press("Escape");

    await page.getByRole("button", { name: "Account actions" }).first().click();
    await page.getByRole("menuitem", { name: "QR code" }).click();
    await check(dialog(page, "QR code"), "QR code");
    await page.keyboard.press("Escape");

    await page.getByRole("button", { name: "Top up" }).click();
    await check(dialog(page, "Top up my account"), "Top up my account");
    await page.keyboard.press("Escape");

    await page.getByRole("button", { name: "See more" }).click();
    await check(dialog(page, "All transactions"), "All transactions");
    await page.keyboard.press("Escape");

    await page.locator(".tx").first().click();
    await check(dialog(page, "Transaction details"), "Transaction details");
    await page.keyboard.press("Escape");

    await page.getByRole("button", { name: "Account actions" }).first().click();
    await page.getByRole("menuitem", { name: "Reconversion" }).click();
    await check(dialog(page, "Money reconversion"), "Money reconversion");
    await page.keyboard.press("Escape");

    await page.getByRole("button", { name: "Alice Martin" }).click();
    await page.getByRole("menuitem", { name: "About Mutua" }).click();
    await check(dialog(page, "About Mutua"), "About Mutua");
    await context.close();

    // Carol's ledger wallet asks for its password before paying: the Authentication dialog.
    const carol = await signedIn(suite, "carol@example.com");
    await carol.page.getByRole("button", { name: "Pay" }).click();
    const c1 = dialog(carol.page, "Send money - 1/2");
    await c1.getByPlaceholder("Name, email address or phone number").fill("martin");
    await c1
      .getByRole("button", { name: /^Alice Martin/ })
      .first()
      .click();
    const c2 = dialog(carol.page, "Send money - 2/2");
    await c2.getByLabel("Amount").fill("1");
    await c2.getByRole("button", { name: "Send", exact: true }).click();
    await c2.getByRole("button", { name: "Confirm and send" }).click();
    const auth = dialog(carol.page, "Authentication");
    await auth.waitFor();
    const { violations } = await new AxeBuilder({ page: carol.page }).include("dialog[open]").analyze();
    expect(violations.map((v) => `Authentication: ${v.id} ${v.help}`)).toEqual([]);
    await carol.context.close();
  });
});

describe("dialogs and the keyboard", () => {
  it("a dialog takes the focus, keeps it inside, closes with Escape and gives it back", async () => {
    const { page, context } = await signedIn(suite, "alice@example.com");
    const pay = page.getByRole("button", { name: "Pay" });
    await pay.focus();
    await page.keyboard.press("Enter");
    const d = dialog(page, "Send money - 1/2");
    await d.waitFor();
    // The rest of the page is inert: Tab cycles through the dialog (and the browser's own
    // controls, which a headless page reports as the body), never the page behind.
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement === document.body || Boolean(document.activeElement?.closest("dialog[open]")))).toBe(true);
    }
    await page.keyboard.press("Escape");
    await d.waitFor({ state: "hidden" });
    expect(await pay.evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();
  });

  it("pays bob with the keyboard alone, every focused control visibly marked", async () => {
    const { page, context, errors } = await newPage(suite.browser);
    await page.goto(`${suite.server.url}/`);
    await page.getByLabel("Email").waitFor();
    const focusIsVisible = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return false;
        const s = getComputedStyle(el);
        return (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== "none";
      });
    /** Tabs until the focused element matches, like a keyboard user looking for it. */
    const tabTo = async (matches: (el: { label: string; tag: string }) => boolean, max = 40) => {
      const seen: string[] = [];
      for (let i = 0; i < max; i++) {
        await page.keyboard.press("Tab");
        const el = await page.evaluate(() => {
          const a = document.activeElement as HTMLElement;
          const label = a.getAttribute("aria-label") ?? (a as HTMLInputElement).labels?.[0]?.textContent ?? a.textContent ?? "";
          return { label: label.trim(), tag: a.tagName };
        });
        seen.push(`${el.tag}:${el.label}`);
        if (matches(el)) {
          expect(await focusIsVisible()).toBe(true);
          return;
        }
      }
      throw new Error(`not reachable with Tab; went through ${seen.join(", ")}`);
    };
    await tabTo((el) => el.label === "Email");
    await page.keyboard.type("alice@example.com");
    await tabTo((el) => el.label === "Password");
    await page.keyboard.type("Demo1234!");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await page.getByRole("heading", { name: "Transactions" }).waitFor();

    await tabTo((el) => el.label === "Pay");
    await page.keyboard.press("Enter");
    await dialog(page, "Send money - 1/2").waitFor();
    await tabTo((el) => el.label === "Recipient");
    await page.keyboard.type("durand");
    await tabTo((el) => el.label.startsWith("Bob Durand"));
    await page.keyboard.press("Enter");
    const step2 = dialog(page, "Send money - 2/2");
    await step2.getByLabel("Amount").waitFor();
    await tabTo((el) => el.label === "Amount");
    await page.keyboard.type("3.21");
    await tabTo((el) => el.label === "Memo");
    await page.keyboard.type("Keyboard only");
    await tabTo((el) => el.label === "Send");
    await page.keyboard.press("Enter");
    await step2.getByRole("heading", { name: "Review the payment" }).waitFor();
    await tabTo((el) => el.label === "Confirm and send");
    await page.keyboard.press("Enter");
    const confirmation = dialog(page, "Payment confirmation");
    await confirmation.getByText("Sent 3.21 DL").waitFor();
    await page.keyboard.press("Escape");
    await dialog(page, "Add as favorite")
      .waitFor()
      .catch(() => undefined);
    await page.keyboard.press("Escape");
    await page.getByText("Keyboard only").first().waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("page settings", () => {
  it("<html lang> follows the chosen language, and zoom is never disabled", async () => {
    const { page, context } = await newPage(suite.browser);
    await page.goto(`${suite.server.url}/`);
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toMatch(/^en/);
    const viewport = await page.locator('meta[name="viewport"]').getAttribute("content");
    expect(viewport).not.toMatch(/user-scalable\s*=\s*(no|0)|maximum-scale/);
    await context.close();

    const fr = await newPage(suite.browser, { locale: "fr-FR" });
    await fr.page.goto(`${suite.server.url}/`);
    await fr.page.getByRole("button", { name: "Se connecter" }).waitFor();
    expect(await fr.page.evaluate(() => document.documentElement.lang)).toMatch(/^fr/);
    await fr.context.close();
  });

  it("on a phone, every control is at least 44 px tall and wide enough to hit", async () => {
    const { page, context } = await newPage(suite.browser, { viewport: { width: 360, height: 640 } });
    await signIn(page, suite.server.url, "alice@example.com", "Demo1234!");
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await page.getByRole("heading", { name: "Transactions" }).waitFor();
    const small = async () =>
      page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>("button, a[href], input:not([type=hidden]), select, [role=switch]")]
          .filter((el) => el.offsetParent !== null && !el.closest("p, .skip-link"))
          .map((el) => ({ el, r: el.getBoundingClientRect() }))
          .filter(({ r }) => r.width > 0 && (r.height < 44 || r.width < 24))
          .map(
            ({ el, r }) =>
              `${el.tagName} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 30)}" ${Math.round(r.width)}×${Math.round(r.height)}`,
          ),
      );
    expect(await small()).toEqual([]);
    await page.getByRole("button", { name: "Pay" }).click();
    await dialog(page, "Send money - 1/2").getByPlaceholder("Name, email address or phone number").waitFor();
    expect(await small()).toEqual([]);
    await context.close();
  });

  it("announces toasts to screen readers", async () => {
    const { page, context } = await newPage(suite.browser);
    await signIn(page, suite.server.url, "alice@example.com", "wrong-password");
    const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Invalid credentials" });
    await toast.waitFor();
    expect(await toast.evaluate((el) => el.closest("[aria-live]")?.getAttribute("aria-live"))).toMatch(/polite|assertive/);
    await context.close();
  });

  it("follows the system's dark mode and reduced motion", async () => {
    const { page, context } = await newPage(suite.browser);
    await page.goto(`${suite.server.url}/`);
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    const textColor = () => page.evaluate(() => getComputedStyle(document.querySelector("main")!).color);
    await page.emulateMedia({ colorScheme: "light" });
    const light = await textColor();
    await page.emulateMedia({ colorScheme: "dark" });
    const dark = await textColor();
    expect(dark).not.toBe(light);
    // Light text on a dark page.
    const [r, g, b] = dark.match(/\d+/g)!.map(Number) as [number, number, number];
    expect(r + g + b).toBeGreaterThan(600);

    await page.emulateMedia({ reducedMotion: "reduce" });
    const durations = await page.evaluate(
      () =>
        [...document.querySelectorAll<HTMLElement>("body *")]
          .map((el) => getComputedStyle(el))
          .filter((s) => parseFloat(s.transitionDuration) > 0.02 || parseFloat(s.animationDuration) > 0.02).length,
    );
    expect(durations).toBe(0);
    await context.close();
  });
});
