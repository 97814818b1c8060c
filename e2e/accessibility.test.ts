import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { newPage } from "./support/browser";
import { signedIn, useSuite } from "./support/suite";
import { french, signInWords } from "./pages/app";
import { openSignIn, signIn, signInButton, signInToDashboard } from "./pages/members";

/**
 * Accessibility: axe-core finds nothing on any route or modal (e2e/screens.test.ts, in
 * both languages and colour schemes); dialogs trap focus,
 * give it back and close with Escape; a payment can be made with the keyboard alone; <html lang>
 * follows the language; zoom stays allowed; touch targets are 44 px; toasts are announced; dark
 * mode and reduced motion are honoured.
 */
const suite = useSuite();

const dialog = (page: Page, name: string) => page.getByRole("dialog", { name });

describe("dialogs and the keyboard", () => {
  it("a dialog takes the focus, keeps it inside, closes with Escape and gives it back", async () => {
    const { page, context } = await signedIn(suite, "alice@example.com");
    const pay = page.getByRole("button", { name: "Pay" });
    // Pay is enabled once the accounts have loaded (a disabled button takes no focus): a trial
    // click waits for that, as a hand would, without pressing it.
    await pay.click({ trial: true });
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
    await openSignIn(page, suite.server.url);
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
          // What a screen reader names it: decorations marked aria-hidden (initials avatars) left out.
          const shown = a.cloneNode(true) as HTMLElement;
          shown.querySelectorAll("[aria-hidden=true]").forEach((n) => n.remove());
          const label = a.getAttribute("aria-label") ?? (a as HTMLInputElement).labels?.[0]?.textContent ?? shown.textContent ?? "";
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
    await page.getByRole("heading", { name: "Recent activity" }).waitFor();

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
    await openSignIn(page, suite.server.url);
    expect(await page.evaluate(() => document.documentElement.lang)).toMatch(/^en/);
    const viewport = await page.locator('meta[name="viewport"]').getAttribute("content");
    expect(viewport).not.toMatch(/user-scalable\s*=\s*(no|0)|maximum-scale/);
    await context.close();

    const fr = await newPage(suite.browser, { locale: "fr-FR" });
    await fr.page.goto(`${suite.server.url}/`);
    await signInButton(fr.page, signInWords(french)).waitFor();
    expect(await fr.page.evaluate(() => document.documentElement.lang)).toMatch(/^fr/);
    await fr.context.close();
  });

  it("on a phone, every control is at least 44 px tall and wide enough to hit", async () => {
    const { page, context } = await newPage(suite.browser, { viewport: { width: 360, height: 640 } });
    await signInToDashboard(page, suite.server.url, "alice@example.com");
    await page.getByRole("heading", { name: "Recent activity" }).waitFor();
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
    await openSignIn(page, suite.server.url);
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
