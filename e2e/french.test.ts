import fs from "node:fs";
import path from "node:path";
import PO from "pofile";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { newPage, toastText } from "./support/browser";
import { startPayment } from "./pages/payments";
import { signedIn, useSuite } from "./support/suite";

/**
 * English texts whose French differs, as whole-word patterns (placeholders left out). A text that
 * is itself French somewhere in the catalog ("Payer": the books' header, and French for "Pay")
 * cannot tell, and is left out.
 */
const po = PO.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../apps/web/src/locales/fr-FR.po"), "utf8"));
const french = new Set(po.items.map((i) => i.msgstr[0]));
const englishOnly = po.items
  .filter((i) => i.msgid && !i.msgid.includes("{") && i.msgstr[0] && i.msgstr[0] !== i.msgid && !french.has(i.msgid))
  .map((i) => ({ en: i.msgid, re: new RegExp(`(^|[^\\p{L}])${i.msgid.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\p{L}])`, "u") }));

async function expectNoEnglish(page: Page, where: string) {
  const text = await page.evaluate(() => document.body.innerText + "\n" + document.title);
  const left = englishOnly.filter((e) => e.re.test(text)).map((e) => e.en);
  expect(left, `English left on ${where}`).toEqual([]);
}

const suite = useSuite();

describe("French", () => {
  it("switches every visible string of these screens when the browser prefers French", async () => {
    const { page, context, errors } = await newPage(suite.browser, { locale: "fr-FR" });
    await page.goto(`${suite.server.url}/`);
    await page.getByRole("button", { name: "Se connecter" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("fr-FR");
    await expectNoEnglish(page, "login");
    await page.getByRole("button", { name: "Afficher" }).waitFor();

    await page.getByRole("link", { name: "Pas encore membre ?" }).click();
    await page.getByRole("heading", { name: "S'inscrire" }).waitFor();
    await page.getByLabel("E-mail").fill("x");
    await page.getByLabel("E-mail").fill("");
    await page.getByLabel("E-mail").blur();
    await page.getByText("Ce champ ne peut pas être vide.").waitFor();
    await page.getByLabel("Mot de passe", { exact: true }).fill("abc");
    await page.getByText("Le mot de passe doit contenir au moins 8 caractères").waitFor();
    await expectNoEnglish(page, "signup");

    await page.goto(`${suite.server.url}/reset-password`);
    await page.getByRole("heading", { name: "Réinitialiser mon mot de passe" }).waitFor();
    await expectNoEnglish(page, "reset password");

    await page.goto(`${suite.server.url}/carto`);
    await page.getByRole("heading", { name: "Carte", exact: true }).waitFor();
    await page.getByText("Le Fournil du Lac").waitFor();
    await expectNoEnglish(page, "map");

    await page.goto(`${suite.server.url}/`);
    await page.getByLabel("E-mail").fill("alice@example.com");
    await page.getByLabel("Mot de passe", { exact: true }).fill("wrong");
    await page.getByRole("button", { name: "Se connecter" }).click();
    await toastText(page, "Identifiants invalides");
    await page.getByLabel("Mot de passe", { exact: true }).fill("Demo1234!");
    await page.getByRole("button", { name: "Se connecter" }).click();
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await page.getByRole("heading", { name: "Vos comptes" }).waitFor();
    await page.waitForFunction(() => document.title === "Demo Lokal - Tableau de bord");
    await page.getByRole("button", { name: "Alice Martin" }).click();
    await page.getByRole("menuitem", { name: "Se déconnecter" }).waitFor();
    await expectNoEnglish(page, "dashboard with the user menu open");

    await page.getByRole("menuitem", { name: "À propos de Demo Lokal" }).click();
    await page.getByText("Mutua version 1.1.1").waitFor();
    await expectNoEnglish(page, "about dialog");
    await page.getByRole("button", { name: "Ok", exact: true }).click();

    await page.getByRole("button", { name: "Alice Martin" }).click();
    await page.getByRole("menuitem", { name: "Paramètres" }).click();
    await page.getByRole("heading", { name: "Paramètres de langue" }).waitFor();
    await expectNoEnglish(page, "preferences");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a receipt says when in French ('Aujourd’hui, 14:05'), the spec's exact date in its details", async () => {
    const alice = await signedIn(suite, "alice@example.com", "Demo1234!", { phone: true });
    const send = await startPayment(alice.page, "durand", "Bob Durand", "0.75", "Pain");
    await send.getByRole("button", { name: "Send", exact: true }).tap();
    await send.getByRole("button", { name: "Confirm and send" }).tap();
    const confirmation = alice.page.getByRole("dialog", { name: "Payment confirmation" });
    await confirmation.getByText("to Bob Durand").waitFor();
    expect(await confirmation.locator(".detail-when").innerText()).toMatch(/^Today, \d{1,2}:\d{2}\s[AP]M$/);
    await alice.context.close();

    const { page, context } = await newPage(suite.browser, { locale: "fr-FR", phone: true });
    await page.goto(`${suite.server.url}/`);
    await page.getByLabel("E-mail").fill("bob@example.com");
    await page.getByLabel("Mot de passe", { exact: true }).fill("Demo1234!");
    await page.getByRole("button", { name: "Se connecter" }).tap();
    await page.locator(".tx-list .tx").filter({ hasText: "Pain" }).first().tap();
    const receipt = page.getByRole("dialog", { name: "Détails de la transaction" });
    await receipt.getByText("de Alice Martin").waitFor();
    expect(await receipt.locator(".detail-when").innerText()).toMatch(/^Aujourd’hui, \d{2}:\d{2}$/);
    expect(await receipt.locator(".detail-date").innerText()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    await expectNoEnglish(page, "a receipt");
    await receipt.screenshot({ path: "test-results/screens/receipt-360-fr.png" });
    await context.close();
  });

  it("switches language from the preferences and keeps the choice", async () => {
    const { page, context } = await newPage(suite.browser, { locale: "en-US" });
    await page.goto(`${suite.server.url}/`);
    await page.getByLabel("Email").fill("bob@example.com");
    await page.getByLabel("Password", { exact: true }).fill("Demo1234!");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await page.getByRole("button", { name: "Bob Durand" }).click();
    await page.getByRole("menuitem", { name: "Settings" }).click();
    await page.getByRole("switch", { name: "Use custom language" }).check();
    await page.getByLabel("Language", { exact: true }).selectOption("fr-FR");
    await page.getByRole("heading", { name: "Préférences" }).waitFor();
    await page.getByRole("link", { name: "Tableau de bord" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("fr-FR");
    await page.reload();
    await page.getByRole("heading", { name: "Préférences" }).waitFor();
    // Turning the custom language off goes back to the browser's language.
    await page.getByRole("switch", { name: "Choisir la langue" }).uncheck();
    await page.getByRole("heading", { name: "Preferences" }).waitFor();
    await context.close();
  });

  it("says 'Failed to load language Français' and stays usable when the catalog cannot be fetched", async () => {
    const { page, context } = await newPage(suite.browser, { locale: "fr-FR" });
    await page.route("**/i18n/fr-FR.json", (route) => route.fulfill({ status: 500, body: "" }));
    await page.goto(`${suite.server.url}/`);
    await toastText(page, "Failed to load language Français");
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    await context.close();
  });
});
