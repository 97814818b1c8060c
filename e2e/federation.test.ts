import fs from "node:fs";
import path from "node:path";
import PO from "pofile";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { newPage } from "./support/browser";
import { axeViolations, layoutProblems } from "./support/screen-checks";
import { sql, startServer, type RunningServer } from "./support/server";
import { useSuite } from "./support/suite";

/**
 * Two associations, two servers, two databases: the demo association (A, "DL") and the Gonette
 * (B, "GON") link their servers from their owners' consoles. A's owner, on a desktop in English,
 * invites; B's owner, on a phone in French and dark mode, pastes the code and sets B's terms; A's
 * owner confirms with the terms the console offers (B's turned round). Both consoles then say
 * Linked, with the same rate, and each screen passes the layout and accessibility checks.
 */
const suite = useSuite();
let b: RunningServer;
const SHOTS = path.resolve(import.meta.dirname, "../test-results/screens");

const FR = new Map(
  PO.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../apps/web/src/locales/fr-FR.po"), "utf8")).items.map((i) => [i.msgid, i.msgstr[0] || i.msgid]),
);
const fr = (text: string) => FR.get(text) ?? text;

beforeAll(async () => {
  b = await startServer();
  await sql(b, "UPDATE association SET name = 'Gonette de Lyon'");
  await sql(b, "UPDATE currencies SET name = 'Gonette', symbol = 'GON'");
  fs.mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await b?.stop();
  b?.cleanup();
});

/** The demo's owner (admin@), signed in through the login page in the page's language. */
async function owner(server: RunningServer, opts: Parameters<typeof newPage>[1], t = (text: string) => text) {
  const s = await newPage(suite.browser, opts);
  await s.page.goto(`${server.url}/`);
  await s.page.getByLabel(t("Email")).fill("admin@example.com");
  await s.page.getByLabel(t("Password"), { exact: true }).fill("Demo1234!");
  await s.page.getByRole("button", { name: t("Sign in") }).click();
  await s.page.waitForURL((u) => u.pathname.startsWith("/admin") || u.pathname === "/dashboard");
  return s;
}

async function checked(page: Page, name: string) {
  await page.evaluate(() => document.fonts.ready);
  // A toast fading in has, for a moment, the contrast of a half-drawn one: checked once it is in.
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => (a.playState !== "running" && !a.pending) || a.effect?.getTiming().iterations === Infinity),
  );
  expect(await layoutProblems(page), name).toEqual([]);
  expect(await axeViolations(page), name).toEqual([]);
  await page.screenshot({ path: path.join(SHOTS, `federation-${name}.png`), fullPage: true });
}

describe("linking two associations' servers", () => {
  it("A's owner invites, B's owner accepts on a phone in French, A's owner confirms: both consoles say Linked", async () => {
    const a = await owner(suite.server, { viewport: { width: 1280, height: 800 } });
    const bee = await owner(b, { phone: true, locale: "fr-FR", colorScheme: "dark" }, fr);
    try {
      // A: from the settings to the linked associations; nothing yet.
      await a.page.goto(`${suite.server.url}/admin/settings`);
      await a.page.getByRole("link", { name: "Linked associations" }).click();
      await a.page.getByRole("heading", { level: 1, name: "Linked associations" }).waitFor();
      await a.page.getByText("No link yet: invite an association, or accept the invitation of one.").waitFor();
      await checked(a.page, "empty-desktop");

      await a.page.getByRole("button", { name: "Invite an association" }).click();
      const codeField = a.page.getByRole("dialog").getByLabel("Invitation code");
      await expect.poll(() => codeField.inputValue()).toMatch(/^MUTUA-LINK:/);
      const code = await codeField.inputValue();
      await checked(a.page, "invitation-desktop");
      await a.page.getByRole("dialog").getByRole("button", { name: "Done" }).click();
      await a.page.getByText("Invitation sent, not answered yet").waitFor();

      // B, on a phone: accepts with the code and its terms (one GON is worth 0.8 of the unit, one DL 1).
      await bee.page.goto(`${b.url}/admin/federation`);
      await bee.page.getByRole("heading", { level: 1, name: fr("Linked associations") }).waitFor();
      await bee.page.getByRole("button", { name: fr("Accept an invitation") }).click();
      const dialog = bee.page.getByRole("dialog");
      await dialog.getByLabel(fr("Invitation code")).fill(code);
      await dialog.getByLabel(fr("1 {currency} is worth").replace("{currency}", "GON")).fill("0,8");
      await dialog.getByLabel(fr("1 unit of their currency is worth")).fill("1");
      await dialog.getByLabel(fr("Most of their currency we hold")).fill("150");
      await checked(bee.page, "accept-phone-fr-dark");
      await dialog.getByRole("button", { name: fr("Accept the invitation") }).click();
      await bee.page.getByText(fr("Waiting for the other association to confirm")).waitFor();
      await expect.poll(() => bee.page.locator(".federation-link").first().textContent()).toContain("Demo Lokal (DL)");

      // A: the Gonette accepted; its fingerprint is shown; A confirms with the terms offered (theirs turned round).
      await a.page.reload();
      const link = a.page.locator(".federation-link").first();
      await link.getByText("Accepted by them: confirm it").waitFor();
      await expect.poll(() => link.textContent()).toContain("Gonette de Lyon");
      await link.getByRole("button", { name: "Confirm the link" }).click();
      await checked(a.page, "confirm-desktop");
      await a.page.getByRole("dialog").getByRole("button", { name: "Confirm the link" }).click();
      await link.getByText("Linked", { exact: true }).waitFor();
      await expect.poll(() => link.textContent()).not.toContain("The two associations count different rates");
      // Checked as the owner finds it later, without the toast that said so (a toast fading in has,
      // for a moment, the contrast of a half-drawn one).
      await a.page.reload();
      await a.page.locator(".federation-link").first().getByText("Linked", { exact: true }).waitFor();
      await checked(a.page, "linked-desktop");

      // B: linked too, with A's terms.
      await bee.page.reload();
      const theirs = bee.page.locator(".federation-link").first();
      await theirs.getByText(fr("Linked"), { exact: true }).waitFor();
      await expect.poll(() => theirs.textContent()).not.toContain(fr("The two associations count different rates: no payment can cross until they agree."));
      await checked(bee.page, "linked-phone-fr-dark");

      // An invitation made by mistake: withdrawn, after a question, and gone from the list.
      await a.page.getByRole("button", { name: "Invite an association" }).click();
      await a.page.getByRole("dialog").getByRole("button", { name: "Done" }).click();
      await a.page.getByRole("button", { name: "Withdraw the invitation" }).click();
      await a.page.getByRole("dialog", { name: "Withdraw this invitation?" }).getByRole("button", { name: "Withdraw the invitation" }).click();
      await a.page.getByText("The invitation is withdrawn: its code opens nothing any more.").waitFor();
      await expect.poll(() => a.page.locator(".federation-link").count()).toBe(1);

      // Each side's audit log holds its steps, the other's doings included.
      const actions = async (server: RunningServer) =>
        ((await sql(server, "SELECT action FROM audit_log WHERE action LIKE 'federation.%' ORDER BY id")) as { action: string }[]).map((r) => r.action);
      expect(await actions(suite.server)).toEqual([
        "federation.invited",
        "federation.peer_accepted",
        "federation.confirmed",
        "federation.invited",
        "federation.invitation_withdrawn",
      ]);
      expect(await actions(b)).toEqual(["federation.accepted", "federation.peer_confirmed"]);
    } finally {
      await a.context.close();
      await bee.context.close();
    }
  });
});
