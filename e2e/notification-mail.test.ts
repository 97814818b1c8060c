import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOTIFICATION_KINDS } from "@mutua/domain";
import type { Page } from "playwright-core";
import { newPage, PHONE, toastText } from "./support/browser";
import { startMailbox, type Mailbox } from "./support/mailbox";
import { signedIn, useSuite } from "./support/suite";
import { english, french, openScreen, signInWords, type Words } from "./pages/app";
import { DEMO_PASSWORD, signInToDashboard } from "./pages/members";

/**
 * E-mail notifications (docs/architecture.md "Live money"): Bob switches "Money received" on in Preferences,
 * it stays on, and Alice's payment reaches his inbox over SMTP in the app's language.
 */

let mailbox: Mailbox;
beforeAll(async () => {
  mailbox = await startMailbox();
});
afterAll(async () => {
  await mailbox?.close();
});
const suite = useSuite(() => ({ SMTP_URL: mailbox.url }));

async function login(email: string): Promise<{ token: string }> {
  const r = await fetch(`${suite.server.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login: email, password: "Demo1234!" }),
  });
  return (await r.json()) as { token: string };
}

/** A member's API session and custodial wallet, as the app has them. */
async function apiSession(email: string): Promise<{ token: string; wallet: string }> {
  const { token } = await login(email);
  const accounts = (await (await fetch(`${suite.server.url}/api/accounts`, { headers: { authorization: `Bearer ${token}` } })).json()) as { id: string }[];
  return { token, wallet: accounts.find((a) => a.id.startsWith("custodial:"))!.id };
}

/** Preferences, by its address: the member's settings, e-mail notifications among them. */
const openPreferences = (page: Page, t: Words = english) => openScreen(page, "/preferences", "Preferences", t);

describe("e-mail notifications", () => {
  it("Bob switches 'Money received' on, sees it saved, finds it on after a reload, and gets Alice's payment by e-mail", async () => {
    const { page, context, errors } = await signedIn(suite, "bob@example.com", undefined, { phone: true });
    await openPreferences(page);
    const section = page.getByRole("region", { name: "E-mail notifications" });
    const money = section.getByRole("switch", { name: "Money received" });
    expect(await money.isChecked()).toBe(false);
    await money.tap();
    await toastText(page, "Edits were successfully saved");
    expect(await money.isChecked()).toBe(true);
    await page.screenshot({ path: "/tmp/mail-e2e-prefs-phone-en.png", fullPage: true });

    await page.reload();
    await section.getByRole("switch", { name: "Money received" }).waitFor();
    expect(await section.getByRole("switch", { name: "Money received" }).isChecked()).toBe(true);
    for (const other of ["Top-up credited", "Account approved", "Reconversion paid"])
      expect(await section.getByRole("switch", { name: other }).isChecked(), other).toBe(false);

    const alice = await apiSession("alice@example.com");
    const bob = await apiSession("bob@example.com");
    const paid = await fetch(`${suite.server.url}/api/transfers`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${alice.token}` },
      body: JSON.stringify({ from: alice.wallet, to: bob.wallet, parts: [{ account: "main", amount: "2.50" }], key: `e2e-mail-${Date.now()}` }),
    });
    expect(paid.status).toBe(200);
    const mail = await mailbox.next("bob@example.com");
    expect(mail.subject).toBe("Alice Martin paid you 2.50 DL");
    expect(mail.text).toContain("Hello Bob,");
    // The raw header (mailparser folds List-* headers into a structure of its own).
    const header = (key: string) => mail.headerLines.find((h) => h.key === key)?.line.replace(/^[^:]+:\s*/, "");
    expect(header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    const unsubscribe = String(header("list-unsubscribe"));
    expect(unsubscribe).toMatch(new RegExp(`^<${suite.server.url}/api/unsubscribe\\?token=[\\w.-]+>$`));

    // The link opens the page of the message's language, whose button switches it off.
    await page.goto(unsubscribe.slice(1, -1));
    await page.screenshot({ path: "/tmp/mail-e2e-unsubscribe-phone-en.png" });
    await page.getByRole("button", { name: "Stop these e-mails" }).tap();
    await page.getByText("Done: you will no longer get e-mails about money received.").waitFor();
    await page.screenshot({ path: "/tmp/mail-e2e-unsubscribed-phone-en.png" });
    await openPreferences(page);
    await section.getByRole("switch", { name: "Money received" }).waitFor();
    expect(await section.getByRole("switch", { name: "Money received" }).isChecked()).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the language switch tells the server, so that e-mails come in the language the app is shown in", async () => {
    const { page, context, errors } = await signedIn(suite, "dan@example.com");
    const { token } = await login("dan@example.com");
    const language = async () =>
      (
        (await (await fetch(`${suite.server.url}/api/me/notifications`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
          language: string | null;
        }
      ).language;
    // Signed in with the app in English, Dan is written to in English from then on.
    expect(await language()).toBe("en-US");
    await openPreferences(page);
    await page.getByRole("switch", { name: "Use custom language" }).check();
    await page.getByLabel("Language", { exact: true }).selectOption("fr-FR");
    await page.getByRole("heading", { name: "Préférences" }).waitFor();
    await expect.poll(language, { timeout: 5000 }).toBe("fr-FR");
    // Back to the browser's language (English here): the server follows.
    await page.getByRole("switch", { name: "Choisir la langue" }).uncheck();
    await page.getByRole("heading", { name: "Preferences" }).waitFor();
    await expect.poll(language, { timeout: 5000 }).toBe("en-US");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the section in French and English, on a phone and a desktop", async () => {
    for (const [locale, name] of [
      // A no-break hyphen: the phone's title does not break inside "e-mail".
      ["fr-FR", "Notifications par e\u2011mail"],
      ["en-US", "E-mail notifications"],
    ] as const) {
      for (const [size, opts] of [
        ["phone", { phone: true }],
        ["desktop", { viewport: { width: 1280, height: 800 } }],
      ] as const) {
        const { page, context, errors } = await newPage(suite.browser, { locale, ...opts });
        const t = locale === "fr-FR" ? french : english;
        await signInToDashboard(page, suite.server.url, "carol@example.com", DEMO_PASSWORD, signInWords(t));
        await openPreferences(page, t);
        const section = page.getByRole("region", { name });
        await section.getByRole("switch").first().waitFor();
        // One switch per kind a member can be e-mailed about.
        expect(await section.getByRole("switch").count()).toBe(NOTIFICATION_KINDS.length);
        // Nothing wider than the screen.
        const width = size === "phone" ? PHONE.viewport.width : 1280;
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await section.screenshot({ path: `/tmp/mail-e2e-section-${size}-${locale}.png` });
        expect(errors).toEqual([]);
        await context.close();
      }
    }
  });
});
