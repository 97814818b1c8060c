import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { newPage } from "./support/browser";
import { signedIn, useSuite } from "./support/suite";
import { openPayment } from "./pages/payments";

const screen = (name: string) => path.resolve(import.meta.dirname, "../test-results/screens", name);

const suite = useSuite();

/** How an id or an address would show: a backend id, or the short address the app once named wallets by. */
const TECHNICAL = /custodial:|ledger:|Wallet [0-9a-fA-F]{4}…/;

async function expectNoTechnicalName(where: Page | Locator, screen: string) {
  const text = await where.locator(":scope").first().innerText();
  expect(text, `an id or address on ${screen}`).not.toMatch(TECHNICAL);
}

async function close(dialog: Locator) {
  await dialog.getByRole("button", { name: /^(Close|Fermer)$/ }).tap();
  await dialog.waitFor({ state: "detached" });
}

describe("a member's money on a phone", () => {
  it("names each account by its currency, never by an id or an address, on every screen that acts on it", async () => {
    const { page, context, errors } = await signedIn(suite, "carol@example.com", "Demo1234!", { phone: true });
    const accounts = page.locator(".accounts");
    await accounts.getByText("Demo Lokal · signed wallet").waitFor();
    await expectNoTechnicalName(page.locator("body"), "the dashboard");

    const pay = await openPayment(page, "alice", "Alice Martin");
    await pay.getByText("Demo Lokal · signed wallet").waitFor();
    await expectNoTechnicalName(pay, "Send money");
    await close(pay);

    await page.getByRole("button", { name: "Request" }).tap();
    const request = page.getByRole("dialog", { name: "Request money - 1/2" });
    await request.getByText("Demo Lokal · signed wallet").waitFor();
    await expectNoTechnicalName(request, "Request money");
    // The hand goes to the amount, not to ×; the title stays on one line beside × on the phone.
    expect(await request.getByLabel("Amount").evaluate((el) => el === document.activeElement)).toBe(true);
    const title = request.getByRole("heading", { name: "Request money - 1/2" });
    expect(await title.evaluate((h) => Math.round(h.getBoundingClientRect().height / parseFloat(getComputedStyle(h).lineHeight)))).toBe(1);
    await close(request);

    await page.getByRole("button", { name: "Top up" }).tap();
    const topUp = page.getByRole("dialog", { name: "Top up my account" });
    await topUp.getByText("Demo Lokal · signed wallet").waitFor();
    await expectNoTechnicalName(topUp, "Top up");
    expect(await topUp.getByLabel("Amount").evaluate((el) => el === document.activeElement)).toBe(true);
    await close(topUp);
    expect(errors).toEqual([]);
    await context.close();

    // Alice holds a wallet of each kind: the custodial one is the currency's name.
    const alice = await signedIn(suite, "alice@example.com", "Demo1234!", { phone: true });
    await alice.page.locator(".accounts button.account").filter({ hasText: "Main account" }).getByText("Demo Lokal", { exact: true }).waitFor();
    await alice.page.locator(".accounts").getByText("Demo Lokal · signed wallet").waitFor();
    await expectNoTechnicalName(alice.page.locator("body"), "Alice's dashboard");
    await alice.page.screenshot({ path: screen("phone-money-dashboard.png"), fullPage: true });
    await alice.page.getByRole("button", { name: "Top up" }).tap();
    const aliceTopUp = alice.page.getByRole("dialog", { name: "Top up my account" });
    await aliceTopUp.getByText("Demo Lokal", { exact: true }).waitFor();
    await close(aliceTopUp);
    await alice.context.close();
  });

  it("Send money shows the balance with how far below zero the account may go; beyond what is available is 'Insufficient balance'", async () => {
    const { page, context, errors } = await signedIn(suite, "carol@example.com", "Demo1234!", { phone: true });
    const card = page.locator(".accounts button.account").filter({ hasText: "Demo Lokal · signed wallet" });
    const balance = (await card.locator(".amount").innerText()).trim();
    const pay = await openPayment(page, "alice", "Alice Martin");
    await pay.getByText(`${balance} DL · you may go down to -100.00 DL`).waitFor();
    const available = (Number(balance) + 100).toFixed(2);
    await pay.getByText(`Available: ${available} DL`).waitFor();
    await pay.getByLabel("Amount").fill(available);
    expect(await pay.getByText("Insufficient balance").count()).toBe(0);
    await pay.getByLabel("Amount").fill((Number(available) + 0.01).toFixed(2));
    await pay.getByText("Insufficient balance").waitFor();
    expect(await pay.getByRole("button", { name: "Send", exact: true }).isDisabled()).toBe(true);
    await page.screenshot({ path: screen("phone-money-send.png") });
    await close(pay);
    expect(errors).toEqual([]);
    await context.close();

    // A custodial account cannot go below zero: its balance alone.
    const alice = await signedIn(suite, "alice@example.com", "Demo1234!", { phone: true });
    const aliceBalance = (await alice.page.locator(".accounts button.account").filter({ hasText: "Main account" }).locator(".amount").innerText()).trim();
    const alicePay = await openPayment(alice.page, "durand", "Bob Durand");
    await alicePay.getByText(`${aliceBalance} DL`, { exact: true }).waitFor();
    expect(await alicePay.getByText("you may go down to").count()).toBe(0);
    await alice.context.close();
  });

  it("in French, the top-up limits and the credit line are French amounts", async () => {
    const { page, context, errors } = await newPage(suite.browser, { phone: true, locale: "fr-FR" });
    await page.goto(`${suite.server.url}/`);
    await page.getByLabel("E-mail").fill("carol@example.com");
    await page.getByLabel("Mot de passe", { exact: true }).fill("Demo1234!");
    await page.getByRole("button", { name: "Se connecter" }).tap();
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await page.locator(".accounts button.account").first().waitFor();

    await page.getByRole("button", { name: "Recharger" }).tap();
    const topUp = page.getByRole("dialog", { name: "Recharger mon compte" });
    await topUp.getByText("Montant minimum de crédit : 5,00 DL").waitFor();
    await topUp.getByText("Montant maximum de crédit : 500,00 DL").waitFor();
    await topUp.getByRole("textbox").fill("4");
    await topUp.getByText("Le montant minimum de recharge doit être supérieur ou égal à 5,00 DL").waitFor();
    expect(await topUp.innerText()).not.toMatch(/\d\.\d{2}/);
    // The domain's own limit, carried in its message.
    await topUp.getByRole("textbox").fill("99999999999999999");
    await topUp.getByText(/^Le montant à envoyer est trop élevé/).waitFor();
    expect(await topUp.innerText()).not.toMatch(/\d\.\d{2}/);
    await page.screenshot({ path: screen("phone-money-topup-fr.png") });
    await close(topUp);

    const pay = await openPayment(page, "alice", "Alice Martin", { title: "Envoyer de l'argent" });
    await pay.getByText(/-100,00 DL/).waitFor();
    expect(await pay.innerText()).not.toMatch(/\d\.\d{2}/);
    await close(pay);
    expect(errors).toEqual([]);
    await context.close();
  });
});
