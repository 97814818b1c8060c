import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { newPage } from "./support/browser";
import { axeViolations, layoutProblems } from "./support/screen-checks";
import { useSuite } from "./support/suite";
import {
  askToApprove,
  askToFreezeFromConsole,
  askToSignOutEverywhere,
  firstRequest,
  lists,
  openAccountRequests,
  openConsole,
  openCreditRequests,
  openMembersList,
  searchMember,
} from "./pages/admin";
import { openOffer } from "./pages/market";
import { goTo, menuEntry, openMenu, press, screenTitle, signInWords, type Words } from "./pages/app";
import { currencyFigures, openFigures } from "./pages/board";
import { summaryChart } from "./pages/dashboard";
import { DEMO_PASSWORD, signIn } from "./pages/members";

/**
 * Every route and dialog, as a member pages through them: on a 360×740 touch phone and
 * at 1280×800, in English and in French, light and dark. On each: no sideways scroll, nothing
 * outside the viewport, no visible control covered by another; axe-core clean (on the phone: every
 * rule in light, the colour rules again in dark, since only colours change with the scheme and
 * nothing axe judges changes with the width). The screenshots are kept
 * in test-results/screens/ (`{screen}-{width}-{lang}-{scheme}.png`) to page through.
 */
const OUT = path.resolve(import.meta.dirname, "../test-results/screens");
/**
 * A tour visits some thirty screens, each measured, checked by axe on a phone and
 * photographed twice: 80–90 s on a slow two-core machine, more than one e2e test's 90 s.
 */
const TOUR_TIMEOUT = 240_000;

export interface TourWay {
  lang: "en" | "fr";
  phone: boolean;
  /** The app's words in that language (pages/app `english` or `french`). */
  t: Words;
}

/**
 * The tour in each of `ways`, on a server of its own: screens.test.ts walks it on a phone and
 * screens-wide.test.ts at 1280×800, two files run side by side rather than one four times as long.
 */
export function screensTour(ways: readonly TourWay[]): void {
  const suite = useSuite();
  describe.each(ways)("every screen ($lang, phone: $phone)", ({ lang, phone, t }) => {
    const width = phone ? 360 : 1280;

    /** `serviceWorkers: "allow"` where a screen shows what the service worker enables (Preferences' notifications on this device). */
    async function open(email?: string, opts: { serviceWorkers?: "allow" } = {}) {
      const s = await newPage(suite.browser, {
        locale: lang === "fr" ? "fr-FR" : "en-US",
        ...(phone ? { phone: true } : { viewport: { width, height: 800 } }),
        ...opts,
      });
      if (email) {
        await signIn(s.page, suite.server.url, email, DEMO_PASSWORD, signInWords(t));
        // Ada has no account of her own: she lands on her work, the console.
        await s.page.waitForURL(`${suite.server.url}${email === "admin@example.com" ? "/admin" : "/dashboard"}`);
      }
      return s;
    }

    let problems: string[] = [];
    beforeEach(() => {
      problems = [];
    });
    afterEach(() => {
      // What a member would trip over, all of it at once rather than the first only.
      expect(problems).toEqual([]);
    });
    /** Looks at the screen as it is now, in light and dark. */
    async function inspect(page: Page, name: string) {
      // Fonts in and nothing still loading: the screen as the member sees it.
      await page.evaluate(() => document.fonts.ready);
      // Content still loading; a busy button is an action under way (the payment waiting for the
      // Authentication dialog in front of it), which stays busy as long as the screen is looked at.
      await page
        .locator("[aria-busy=true]:not(button)")
        .first()
        .waitFor({ state: "detached", timeout: 5000 })
        .catch(() => undefined);
      // A screen swapped in after the one waited for (a guard's brief busy page) has settled once
      // its heading is there; a screen without one still fails axe below.
      await page
        .locator("h1")
        .first()
        .waitFor({ state: "attached", timeout: 5000 })
        .catch(() => undefined);
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
        if (scheme === "light") problems.push(...(await layoutProblems(page)).map((p) => `${name}: ${p}`));
        if (phone) problems.push(...(await axeViolations(page, { colours: scheme === "dark" })).map((p) => `${name} (${scheme}): ${p}`));
        await page.screenshot({ path: path.join(OUT, `${name}-${width}-${lang}-${scheme}.png`), fullPage: !(await page.locator("dialog[open]").count()) });
      }
      await page.emulateMedia({ colorScheme: "light" });
    }
    const dialog = (page: Page, name: string, values: Record<string, string | number> = {}) => page.getByRole("dialog", { name: t(name, values) });
    const button = (page: Page, name: string) => page.getByRole("button", { name: t(name), exact: true });
    const tap = (l: Locator) => press(l, phone);

    it("signed out: login, sign-up, reset, confirming an address, map", async () => {
      fs.mkdirSync(OUT, { recursive: true });
      const { page, context, errors } = await open();
      for (const [name, route] of [
        ["login", "/"],
        ["signup", "/signup"],
        ["reset-password", "/reset-password"],
        // A sign-up's confirmation link, before its one tap.
        ["confirm-email", "/confirm-email?token=from-the-mail"],
        ["map", "/carto"],
        // A business's page of the directory (the demo's Pressing Vert).
        ["business", "/carto/bz_demo-10-pressing"],
      ] as const) {
        await page.goto(suite.server.url + route);
        await page.locator("main").first().waitFor();
        await inspect(page, name);
      }
      expect(errors).toEqual([]);
      await context.close();
    });

    it(
      "a member: dashboard, every dialog, menus, preferences, profile",
      async () => {
        const { page, context, errors } = await open("alice@example.com", { serviceWorkers: "allow" });
        await page.getByRole("heading", { name: t("Recent activity") }).waitFor();
        // The balance chart loads once scrolled to (below the transactions on a phone).
        await summaryChart(page);
        await page.evaluate(() => window.scrollTo(0, 0));
        await inspect(page, "dashboard");

        await tap(page.getByRole("button", { name: t("Account actions") }).first());
        await inspect(page, "account-actions");
        await page.keyboard.press("Escape");

        // The signed wallet's card, and what "signed wallet" means.
        const cards = page.locator(".accounts button.account");
        await tap(cards.filter({ hasText: t("{currency} · signed wallet", { currency: "Demo Lokal" }) }));
        await tap(page.getByRole("button", { name: t("What is a signed wallet?") }));
        await page.getByRole("note").locator("p").waitFor();
        await inspect(page, "help-tip");
        await page.keyboard.press("Escape");
        await tap(cards.first());

        await tap(button(page, "Pay"));
        const send1 = dialog(page, "Send money - {step}/{steps}", { step: 1, steps: 2 });
        await send1.waitFor();
        await inspect(page, "send-recipient");
        await send1.getByRole("searchbox").or(send1.getByRole("textbox")).first().fill("durand");
        const bob = send1.getByRole("button", { name: /^Bob Durand/ }).first();
        await bob.waitFor();
        await inspect(page, "send-search");
        await tap(bob);
        const send2 = dialog(page, "Send money - {step}/{steps}", { step: 2, steps: 2 });
        await send2.getByLabel(t("Amount")).fill("1");
        await inspect(page, "send-amount");
        await tap(send2.getByRole("button", { name: t("Send"), exact: true }));
        await send2.getByRole("heading", { name: t("Review the payment") }).waitFor();
        await inspect(page, "send-review");
        await tap(send2.getByRole("button", { name: t("Confirm and send") }));
        const confirmation = dialog(page, "Payment confirmation");
        await confirmation.waitFor();
        await inspect(page, "payment-confirmation");
        await tap(confirmation.getByRole("button", { name: t("Ok") }));
        const favorite = dialog(page, "Add as favorite");
        await favorite.waitFor();
        await inspect(page, "add-favorite");
        await tap(favorite.getByRole("button", { name: t("Later") }));

        await tap(button(page, "Request"));
        const req1 = dialog(page, "Request money - {step}/{steps}", { step: 1, steps: 2 });
        await req1.getByLabel(t("Amount")).fill("2");
        await inspect(page, "request-amount");
        await tap(req1.getByRole("button", { name: t("Generate QR code") }));
        await dialog(page, "Request money - {step}/{steps}", { step: 2, steps: 2 }).waitFor();
        await inspect(page, "request-qr");
        await page.keyboard.press("Escape");

        // Asking a member in the app: Bob, for two, then the ask on Alice's dashboard with its state.
        await tap(button(page, "Request"));
        await tap(dialog(page, "Request money - {step}/{steps}", { step: 1, steps: 2 }).getByRole("button", { name: t("From members") }));
        const ask = dialog(page, "Ask members for money");
        await ask.getByLabel(t("Who?")).fill("durand");
        await tap(ask.getByRole("button", { name: /^Bob Durand/ }).first());
        await ask.getByLabel(t("Amount")).fill("2");
        await ask.getByLabel(t("What for?")).fill("Tour");
        await inspect(page, "ask-members");
        await tap(ask.getByRole("button", { name: t("Ask"), exact: true }));
        await ask.waitFor({ state: "detached" });
        // Its toast said so; closed, as the member would, to look at the ask: below the movements.
        const asked = page.locator("[data-sonner-toast]").filter({ hasText: "Bob Durand" });
        await tap(asked.locator("[data-close-button]"));
        await asked.waitFor({ state: "detached" });
        await page.locator(".asks .ask-part").first().scrollIntoViewIfNeeded();
        await inspect(page, "dashboard-asks");
        // Withdrawn, after its question: each of the four tours asks Bob once more, and one member
        // may keep only three asks waiting on another.
        await tap(page.getByRole("button", { name: t("Withdraw the request to {name}", { name: "Bob Durand" }) }).first());
        const question = page.locator("dialog[open]").filter({ has: page.getByRole("button", { name: t("Withdraw"), exact: true }) });
        await question.waitFor();
        await inspect(page, "ask-withdraw");
        await tap(question.getByRole("button", { name: t("Withdraw"), exact: true }));
        await question.waitFor({ state: "detached" });
        // Its toast said so; closed, so that it does not slide over the next screens' checks.
        const said = page.locator("[data-sonner-toast]").filter({ hasText: t("Request withdrawn") });
        await tap(said.locator("[data-close-button]"));
        await said.waitFor({ state: "detached" });

        await tap(page.getByRole("button", { name: t("Account actions") }).first());
        await tap(page.getByRole("menuitem", { name: t("QR code") }));
        await dialog(page, "QR code").waitFor();
        await inspect(page, "qr-code");
        await page.keyboard.press("Escape");

        await tap(page.getByRole("button", { name: t("Account actions") }).first());
        await tap(page.getByRole("menuitem", { name: t("Reconversion") }));
        await dialog(page, "Money reconversion").waitFor();
        await inspect(page, "reconversion");
        await page.keyboard.press("Escape");

        await tap(button(page, "Top up"));
        await dialog(page, "Top up my account").getByLabel(t("Amount")).waitFor();
        await inspect(page, "top-up");
        await page.keyboard.press("Escape");

        await tap(button(page, "See more"));
        await dialog(page, "All transactions").waitFor();
        await inspect(page, "history");
        await page.keyboard.press("Escape");

        await tap(page.locator(".tx").first());
        await dialog(page, "Transaction details").waitFor();
        await inspect(page, "transaction-details");
        await page.keyboard.press("Escape");

        await openMenu(page, "Alice Martin", { phone, t });
        await inspect(page, "user-menu");
        const about = t("About {appName}", { appName: "Demo Lokal" });
        await tap(menuEntry(page, about));
        await page.getByRole("dialog", { name: about }).waitFor();
        await inspect(page, "about");
        await page.keyboard.press("Escape");
        // The dialog's history entry is gone back over before the next address is typed.
        await page.waitForFunction(() => !(history.state as { mutuaStep?: number } | null)?.mutuaStep);

        for (const [name, route] of [
          ["preferences", "/preferences"],
          ["profile", "/profile"],
        ] as const) {
          await goTo(page, route);
          await page.locator("main h1").first().waitFor();
          // Its last section waits for the service worker to be ready.
          if (name === "preferences") await page.getByRole("heading", { name: t("Notifications on this device") }).waitFor();
          await inspect(page, name);
        }

        // The till: the keypad, with Alice's two wallets to choose from, then a code waiting.
        await goTo(page, "/receive");
        const keypad = page.getByRole("group", { name: t("Keypad") });
        for (const k of "250") await tap(keypad.getByRole("button", { name: k, exact: true }));
        await inspect(page, "till");
        await tap(page.getByRole("button", { name: new RegExp(`^${t("Ask {amount}", { amount: "" })}`) }));
        await page.getByRole("img", { name: t("QR code") }).waitFor();
        await inspect(page, "till-waiting");
        await tap(page.getByRole("button", { name: t("Cancel the request") }));
        await keypad.waitFor();
        await tap(page.locator("a.till-today"));
        await page.getByRole("heading", { name: t("Sales") }).waitFor();
        await inspect(page, "till-sales");
        expect(errors).toEqual([]);
        await context.close();
      },
      TOUR_TIMEOUT,
    );

    it(
      "a ledger wallet's Authentication dialog; a member without a wallet; the administrators' screens",
      async () => {
        const carol = await open("carol@example.com");
        await tap(button(carol.page, "Pay"));
        const c1 = dialog(carol.page, "Send money - {step}/{steps}", { step: 1, steps: 2 });
        await c1.getByRole("searchbox").or(c1.getByRole("textbox")).first().fill("martin");
        await tap(c1.getByRole("button", { name: /^Alice Martin/ }).first());
        const c2 = dialog(carol.page, "Send money - {step}/{steps}", { step: 2, steps: 2 });
        await c2.getByLabel(t("Amount")).fill("1");
        await tap(c2.getByRole("button", { name: t("Send"), exact: true }));
        await tap(c2.getByRole("button", { name: t("Confirm and send") }));
        await dialog(carol.page, "Authentication").waitFor();
        await inspect(carol.page, "authentication");
        await carol.context.close();

        const dan = await open("dan@example.com");
        // The dashboard itself, its heading and its first step, not the route's loading box before it.
        await dan.page.locator("main h1").first().waitFor({ state: "attached" });
        await dan.page.locator(".accounts .next-step").first().waitFor();
        await inspect(dan.page, "dashboard-no-wallet");
        await goTo(dan.page, "/create-account");
        await dan.page.locator("main h1").first().waitFor();
        await inspect(dan.page, "create-wallet");
        await dan.context.close();

        // Bob's notification centre: Alice's payment of this run's member test, unread.
        const bob = await open("bob@example.com");
        await tap(bob.page.getByRole("link", { name: /^Notifications/ }));
        await bob.page.getByRole("heading", { name: t("Notifications") }).waitFor();
        await bob.page.locator("main .notification").first().waitFor();
        await inspect(bob.page, "notifications");
        // The marketplace and one of the demo's offers, as any member finds them.
        await goTo(bob.page, "/market");
        await bob.page.locator(".offer-list[aria-busy=false] .offer-card").first().waitFor();
        await inspect(bob.page, "market");
        await openOffer(bob.page, bob.page.locator(".offer-card").filter({ hasText: "Vegetable basket" }), "Vegetable basket", { phone });
        await inspect(bob.page, "market-offer");
        // His standing orders (the demo has none), and the first step of setting one up.
        await goTo(bob.page, "/standing-orders");
        await bob.page.locator(".standing-orders .empty-state").waitFor();
        await inspect(bob.page, "standing-orders");
        await tap(bob.page.getByRole("link", { name: t("New standing order") }));
        await bob.page.getByRole("searchbox").waitFor();
        await inspect(bob.page, "standing-orders-new");
        expect(bob.errors).toEqual([]);
        await bob.context.close();

        const admin = await open("admin@example.com");
        // Each screen once its lists are loaded: each of its sections shows its table or its empty text.
        await openAccountRequests(admin.page);
        await inspect(admin.page, "admin-pending-accounts");
        await openCreditRequests(admin.page);
        await inspect(admin.page, "admin-pending-credits");
        await openConsole(admin.page);
        await lists(admin.page, 4);
        await inspect(admin.page, "admin");
        // An administrator's question before an action: the member, e-mail, amount and reference.
        await openCreditRequests(admin.page);
        const approve = await askToApprove(admin.page, firstRequest(admin.page), undefined, { t });
        await approve.locator("dl").waitFor();
        await inspect(admin.page, "admin-confirm");
        await admin.page.keyboard.press("Escape");
        await admin.page.getByRole("dialog").waitFor({ state: "detached" });
        // Freezing a wallet asks for the reason its owner will read.
        await openConsole(admin.page);
        const reason = lang === "fr" ? "Activité inhabituelle : appelez-nous" : "Unusual activity: please call us";
        await askToFreezeFromConsole(admin.page, "durand", "Bob Durand", reason, { phone, t });
        await inspect(admin.page, "admin-freeze");
        await admin.page.keyboard.press("Escape");
        await admin.page.getByRole("dialog").waitFor({ state: "detached" });
        // The members' pages and the board's figures.
        await openMembersList(admin.page, t);
        const bobsLink = await searchMember(admin.page, "durand", "Bob Durand", t);
        await inspect(admin.page, "admin-members");
        await tap(bobsLink);
        await screenTitle(admin.page, "Bob Durand").waitFor();
        await inspect(admin.page, "admin-member");
        await askToSignOutEverywhere(admin.page, "Bob Durand", { phone, t });
        await inspect(admin.page, "admin-member-sign-out");
        await admin.page.keyboard.press("Escape");
        await admin.page.getByRole("dialog").waitFor({ state: "detached" });
        await openFigures(admin.page);
        await currencyFigures(admin.page, "Demo Lokal");
        await admin.page.locator(".flows-chart canvas").first().waitFor();
        await inspect(admin.page, "figures");
        expect([...carol.errors, ...dan.errors, ...admin.errors]).toEqual([]);
        await admin.context.close();
      },
      TOUR_TIMEOUT,
    );
  });
}
