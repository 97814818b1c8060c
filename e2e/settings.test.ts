import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { newPage, toastText } from "./support/browser";
import { axeViolations, layoutProblems } from "./support/screen-checks";
import { sql, startInstance, type RunningServer } from "./support/server";
import { signedIn, useSuite } from "./support/suite";
import { answer, english, hasFocus, menuEntry, openMenu, screenTitle, signInWords, type Words } from "./pages/app";
import {
  askToSaveWhatMembersMayOwe,
  currencySymbol,
  membersMayOwe,
  openSettings,
  pickMainColour,
  preview,
  saveButton,
  saveSettings,
  uploadLogo,
} from "./pages/association";
import { DEMO_PASSWORD, signIn } from "./pages/members";
import { confirmPayment, reviewPayment, signWithPassword, startPayment } from "./pages/payments";

/**
 * The association's settings, as its owner changes them (features/settings): Ada (an owner) opens
 * them from her menu, gives the currency a new symbol, uploads a logo, picks a main colour and
 * sees it in the preview, saves; Alice's app shows all three at its next start, and every
 * instance serves the same config.json. Then Ada lowers how much members may owe (the ledger's
 * floor from -100.00 to -20.00): the screen says who is below it first, nobody's balance moves,
 * Alice (below it) can no longer pay from her mutual credit and Carol (above it) still can.
 */
const suite = useSuite();
let second: RunningServer;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-settings-"));
const SHOTS = "/tmp/settings-shots";
beforeAll(async () => {
  second = await startInstance(suite.server);
  fs.mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await second?.stop();
  second?.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * The French this file expects, word for word: written here rather than read from the
 * translation file, so that a missing translation shows.
 */
const FRENCH: Record<string, string> = {
  Email: "E-mail",
  Password: "Mot de passe",
  "Sign in": "Se connecter",
  Main: "Principal",
  Shortcuts: "Raccourcis",
  Menu: "Menu",
  "Association settings": "Paramètres de l'association",
  "Members may owe up to": "Les membres peuvent devoir jusqu'à",
  "Save the settings": "Enregistrer les paramètres",
  "Lower how much members may owe?": "Réduire ce que les membres peuvent devoir ?",
  Cancel: "Annuler",
};
const inFrench: Words = (text) => {
  const words = FRENCH[text];
  if (words === undefined) throw new Error(`no French written for "${text}"`);
  return words;
};

const q = async <T>(text: string, params: unknown[] = []) => (await sql(suite.server, text, params)) as T[];

/** Every member's mutual credit on the demo ledger, in cents, with its floor. */
const mutualCredit = () =>
  q<{ email: string; balance: string; floor: string | null }>(
    `SELECT m.email, a.balance::text AS balance, a.floor::text AS floor FROM accounts a JOIN wallets w ON w.id = a.wallet_id JOIN members m ON m.id = w.member_id
     WHERE w.backend_id = 'ledger:demo-lokal' AND w.role = 'member' AND a.kind = 'cm' ORDER BY m.email`,
  );
/** Every balance of every account, to tell that nothing moved. */
const allBalances = () => q<{ id: string; balance: string }>("SELECT id::text, balance::text FROM accounts ORDER BY id");

/** Each press a click, on a wide screen. */
const BY_CLICK = { touch: false };

/** A member pays another from their ledger wallet: step 2 of Send money, with the amount typed. */
const payStep = (page: Page, search: string, name: string, amount: string) => startPayment(page, search, name, amount, undefined, BY_CLICK);

describe("the association's settings", () => {
  it("Ada changes the symbol, the logo and the main colour, sees them in the preview and saves; Alice's app and every instance have them", async () => {
    const alice = await signedIn(suite, "alice@example.com");
    await alice.page.locator(".transactions .tx").first().getByText("-15.00 DL", { exact: true }).waitFor();

    const ada = await signedIn(suite, "admin@example.com");
    const { page } = ada;
    await openSettings(page, "Ada Admin");
    const save = saveButton(page);
    expect(await save.getAttribute("aria-disabled")).toBe("true");
    const shown = preview(page);
    await shown.getByText("123.45 DL", { exact: true }).waitFor();

    // The symbol: the preview's balance follows as she types.
    expect(await currencySymbol(page).inputValue()).toBe("DL");
    await currencySymbol(page).fill("DLK");
    await shown.getByText("123.45 DLK", { exact: true }).waitFor();

    // A logo, saved at once; what would run in it is taken out by the server.
    const svg = path.join(dir, "logo.svg");
    fs.writeFileSync(
      svg,
      '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40"><rect width="120" height="40" rx="8" fill="#8a2be2"/>' +
        '<circle cx="20" cy="20" r="10" fill="#fff"/><script>alert(1)</script></svg>',
    );
    await uploadLogo(page, svg);
    await toastText(page, "The logo is saved");
    const logo = page.getByRole("img", { name: "Current logo" });
    await logo.waitFor();
    await page.waitForFunction(() => (document.querySelector<HTMLImageElement>(".settings-logo-frame img")?.naturalWidth ?? 0) > 0);
    const logoUrl = (await logo.getAttribute("src"))!;
    const served = await fetch(`${suite.server.url}${logoUrl}`);
    expect(served.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    const body = await served.text();
    expect(body).toContain("<circle");
    expect(body).not.toContain("script");
    // The preview shows it on the sign-in page and in the top bar.
    expect(await shown.locator("img").count()).toBe(2);
    // The symbol typed before the upload is still there.
    expect(await currencySymbol(page).inputValue()).toBe("DLK");

    // The main colour: in the preview only, not on the page.
    const pageColour = () => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--primary-color").trim());
    const before = await pageColour();
    await pickMainColour(page, "#8a2be2");
    const signIn = shown.locator(".preview-button").first();
    await expect.poll(() => signIn.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(138, 43, 226)");
    expect(await pageColour()).toBe(before);
    await page.getByText("#8a2be2", { exact: true }).waitFor();

    expect(await save.getAttribute("aria-disabled")).toBe("false");
    await saveSettings(page);
    await toastText(page, "The settings are saved");
    // Nothing left to save, and the hand is still on the button.
    await expect.poll(() => save.getAttribute("aria-disabled")).toBe("true");
    expect(await hasFocus(save)).toBe(true);
    expect(await q("SELECT symbol FROM currencies WHERE id = 'demo-lokal'")).toEqual([{ symbol: "DLK" }]);

    // Alice's app, opened again: the new symbol, the main colour and the logo.
    await alice.page.reload();
    await alice.page.locator(".transactions .tx").first().getByText("-15.00 DLK", { exact: true }).waitFor();
    expect(await alice.page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--primary-color").trim())).toBe("#8a2be2");
    expect(
      await alice.page
        .getByRole("button", { name: "Pay", exact: true })
        .locator(".money-icon")
        .evaluate((el) => getComputedStyle(el).backgroundColor),
    ).toBe("rgb(138, 43, 226)");
    const navLogo = alice.page.locator(".navbar-logo img");
    expect(await navLogo.getAttribute("src")).toBe(logoUrl);
    await alice.page.waitForFunction(() => (document.querySelector<HTMLImageElement>(".navbar-logo img")?.naturalWidth ?? 0) > 0);

    // Every instance serves the same config.json (each names itself as the API's host).
    const [one, two] = await Promise.all(
      [suite.server.url, second.url].map(async (url) => {
        const { lokapiHost: _, ...config } = (await (await fetch(`${url}/config.json`)).json()) as Record<string, unknown>;
        return config;
      }),
    );
    expect(two).toEqual(one);
    expect(one).toMatchObject({ logoUrl, theme: { "primary-color": "#8a2be2" } });
    expect([...ada.errors, ...alice.errors]).toEqual([]);
    await Promise.all([ada.context.close(), alice.context.close()]);
  });

  it("Ada lowers how much members may owe: told who is below first, nobody's balance moves, Alice below can no longer pay from her mutual credit, Carol above still can", async () => {
    // Alice's mutual credit is at -40.00 (the demo's payments), Carol's at +40.00.
    expect(await mutualCredit()).toEqual([
      { email: "alice@example.com", balance: "-4000", floor: "-10000" },
      { email: "carol@example.com", balance: "4000", floor: "-10000" },
    ]);
    const balancesBefore = await allBalances();

    const ada = await signedIn(suite, "admin@example.com");
    const { page } = ada;
    await openSettings(page, "Ada Admin");
    const owe = membersMayOwe(page);
    expect(await owe.inputValue()).toBe("100.00");
    // Typed as a floor, with its minus: the same as 20.
    const ask = await askToSaveWhatMembersMayOwe(page, "-20");
    await ask
      .getByText(
        "One member is below the new floor of \u221220.00 DLK. They keep their balance, and cannot pay from their mutual credit until they are back above it.",
      )
      .waitFor();
    // Cancel has the focus: a stray Enter saves nothing.
    expect(await hasFocus(ask.getByRole("button", { name: "Cancel" }))).toBe(true);
    await answer(ask, "Save");
    await toastText(page, "The settings are saved");
    await ask.waitFor({ state: "detached" });
    expect(await hasFocus(saveButton(page))).toBe(true);
    expect(await owe.inputValue()).toBe("20.00");

    // Nobody's balance moved; Alice's floor stops at her balance, Carol's follows the backend's.
    expect(await allBalances()).toEqual(balancesBefore);
    expect(await q("SELECT cm_floor::text FROM backends WHERE id = 'ledger:demo-lokal'")).toEqual([{ cm_floor: "-2000" }]);
    expect(await mutualCredit()).toEqual([
      { email: "alice@example.com", balance: "-4000", floor: "-4000" },
      { email: "carol@example.com", balance: "4000", floor: "-2000" },
    ]);
    const audit = await q<{ action: string }>("SELECT action FROM audit_log WHERE action LIKE 'association.%' ORDER BY id");
    expect(audit.map((a) => a.action)).toEqual(["association.logo_changed", "association.settings_changed", "association.settings_changed"]);

    // Alice, below the new floor: her pledged money only, her mutual credit refused.
    const alice = await signedIn(suite, "alice@example.com");
    const refused = await payStep(alice.page, "carol", "Carol Petit", "150");
    await refused.getByText("Available: 145.00 DLK").waitFor();
    await refused.getByText("Insufficient balance").waitFor();
    expect(await refused.getByRole("button", { name: "Send", exact: true }).isDisabled()).toBe(true);

    // Carol, above it: pays 130.00, 85.00 pledged and 45.00 of mutual credit (down to -5.00).
    const carol = await signedIn(suite, "carol@example.com");
    const step2 = await payStep(carol.page, "alice", "Alice Martin", "130");
    await step2.getByText("Available: 145.00 DLK").waitFor();
    await step2.getByText("Mutual credit: 45.00 DLK").waitFor();
    await reviewPayment(step2, BY_CLICK);
    await confirmPayment(step2, BY_CLICK);
    await signWithPassword(carol.page, "Demo1234!", BY_CLICK);
    await carol.page.getByRole("dialog", { name: "Payment confirmation" }).getByText("Sent 130.00 DLK").waitFor({ timeout: 30_000 });
    expect((await mutualCredit()).find((r) => r.email === "carol@example.com")).toEqual({ email: "carol@example.com", balance: "-500", floor: "-2000" });
    expect([...ada.errors, ...alice.errors, ...carol.errors]).toEqual([]);
    await Promise.all([ada.context.close(), alice.context.close(), carol.context.close()]);
  });

  it("a member who is not an owner has no entry in the menu, is sent back from the screen, and cannot read the settings", async () => {
    const { page, context } = await signedIn(suite, "accounts@example.com");
    await openMenu(page, "Axel Accounts");
    await menuEntry(page, "Members").waitFor();
    expect(await menuEntry(page, "Association settings").count()).toBe(0);
    await page.goto(`${suite.server.url}/admin/settings`);
    await page.waitForURL(`${suite.server.url}/dashboard`);
    expect(await page.evaluate(async () => (await fetch("/api/admin/settings")).status)).toBe(403);
    await context.close();
  });

  it("fits a phone and a wide screen, light and dark, in English and in French", async () => {
    const shots: { name: string; opts: Parameters<typeof newPage>[1]; fr?: boolean }[] = [
      { name: "360x740-light-en", opts: { phone: true, colorScheme: "light" } },
      { name: "360x740-dark-fr", opts: { phone: true, colorScheme: "dark", locale: "fr-FR" }, fr: true },
      { name: "1280x800-light-en", opts: { viewport: { width: 1280, height: 800 }, colorScheme: "light" } },
      { name: "1280x800-dark-fr", opts: { viewport: { width: 1280, height: 800 }, colorScheme: "dark", locale: "fr-FR" }, fr: true },
    ];
    for (const { name, opts, fr } of shots) {
      const { page, context, errors } = await newPage(suite.browser, opts);
      const t = fr ? inFrench : english;
      await signIn(page, suite.server.url, "admin@example.com", DEMO_PASSWORD, signInWords(t));
      // With no account of her own, Ada lands on the console.
      await page.waitForURL(`${suite.server.url}/admin`);
      await page.locator("main h1").waitFor();
      // From the account menu: on a phone behind the menu button, in the bottom sheet.
      await openMenu(page, "Ada Admin", { phone: opts?.phone, t });
      const entry = menuEntry(page, "Association settings", t);
      await entry.waitFor();
      expect(await layoutProblems(page), `${name} menu`).toEqual([]);
      if (opts?.phone) await page.screenshot({ path: path.join(SHOTS, `menu-${name}.png`) });
      await entry.click();
      await screenTitle(page, "Association settings", t).waitFor();
      const owe = membersMayOwe(page, t);
      await owe.waitFor();
      expect(await layoutProblems(page), name).toEqual([]);
      expect(await axeViolations(page), name).toEqual([]);
      // Screen by screen, as the hand scrolls (a full-page shot would draw the sticky Save bar mid-page).
      const { height } = page.viewportSize()!;
      const total = await page.evaluate(() => document.documentElement.scrollHeight);
      for (let y = 0, i = 1; y < total; y += height - 100, i++) {
        await page.evaluate((top) => window.scrollTo(0, top), y);
        await page.screenshot({ path: path.join(SHOTS, `settings-${name}-${i}.png`) });
      }
      await page.evaluate(() => window.scrollTo(0, 0));
      // The floor's question, asked by a raise (to 1.00).
      const dialog = await askToSaveWhatMembersMayOwe(page, fr ? "1,00" : "1", t);
      await dialog.getByText(fr ? /sous le nouveau plancher de −1,00 DLK?\b/ : /below the new floor of −1\.00 DLK?\b/).waitFor();
      expect(await layoutProblems(page), `${name} dialog`).toEqual([]);
      expect(await axeViolations(page), `${name} dialog`).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, `dialog-${name}.png`) });
      await answer(dialog, "Cancel", { t });
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
