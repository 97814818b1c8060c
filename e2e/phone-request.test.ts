import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { newPage, toastText } from "./support/browser";
import { signedIn, useSuite } from "./support/suite";
import { confirmAddress } from "./support/outbox";
import { copyPaymentLink, openMyQrCode, openPayLink, paymentLink, requestedAmount, requestMoney } from "./pages/qr";

/**
 * On a 360×740 touch phone: a payment request's link copied or shared, not only its QR
 * code and PDF; an empty dashboard says what to do next.
 */
const suite = useSuite();
const SCREENS = path.resolve(import.meta.dirname, "../test-results/screens");
const shot = async (page: Page, name: string) => {
  fs.mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS, `${name}-360x740.png`) });
};

const phone = (email: string) => signedIn(suite, email, "Demo1234!", { phone: true });

async function login(email: string): Promise<{ token: string; profile: { id: number } }> {
  const res = await fetch(`${suite.server.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login: email, password: "Demo1234!" }),
  });
  return (await res.json()) as { token: string; profile: { id: number } };
}
const memberId = async (email: string) => (await login(email)).profile.id;

describe("a payment request's link", () => {
  it("alice copies the link of a 4.20 request; opened by bob, it is Send money's second step to Alice Martin for 4.20", async () => {
    const alice = await phone("alice@example.com");
    await alice.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: suite.server.url });
    const step2 = await requestMoney(alice.page, "4.20", "Apples");
    // Headless Chromium cannot share: Copy link is the one primary action, next to the PDF.
    expect(await alice.page.evaluate(() => typeof navigator.share)).toBe("undefined");
    expect(await step2.getByRole("button", { name: "Share", exact: true }).count()).toBe(0);
    const copy = step2.getByRole("button", { name: "Copy link" });
    expect(await copy.getAttribute("class")).toContain("primary");
    expect(await step2.locator(".button.primary").count()).toBe(1);
    await step2.getByRole("button", { name: "Download PDF" }).waitFor();
    await shot(alice.page, "request-copy-link");
    const link = await copyPaymentLink(step2);
    const url = new URL(link);
    expect(`${url.origin}${url.pathname}`).toBe(`${suite.server.url}/pay`);
    expect(url.searchParams.get("rp")).toBe(String(await memberId("alice@example.com")));
    expect(url.searchParams.get("amount")).toBe("4.20");
    expect(url.searchParams.get("recipientMemo")).toBe("Apples");
    expect(alice.errors).toEqual([]);
    await alice.context.close();

    const bob = await phone("bob@example.com");
    const pay = await openPayLink(bob.page, link);
    await pay.getByText("Alice Martin").first().waitFor();
    expect(await requestedAmount(pay)).toBe("4.20 DL");
    expect(bob.errors).toEqual([]);
    await bob.context.close();
  });

  it("where the phone can share, Share is the primary action and hands over the link; the QR code of the account has one too", async () => {
    const { page, context, errors } = await phone("bob@example.com");
    // A phone's share sheet, as Chromium on Android has it: it records what it was given.
    await page.evaluate(() => {
      (window as unknown as { shared: ShareData[] }).shared = [];
      Object.defineProperty(navigator, "share", {
        configurable: true,
        value: async (data: ShareData) => void (window as unknown as { shared: ShareData[] }).shared.push(data),
      });
    });
    const dialog = await openMyQrCode(page);
    const share = dialog.getByRole("button", { name: "Share", exact: true });
    expect(await share.getAttribute("class")).toContain("primary");
    expect(await dialog.locator(".button.primary").count()).toBe(1);
    await dialog.getByRole("button", { name: "Copy link" }).waitFor();
    await shot(page, "qr-code-share");
    await share.tap();
    const shared = await page.evaluate(() => (window as unknown as { shared: ShareData[] }).shared);
    expect(shared).toHaveLength(1);
    expect(shared[0]!.text).toBe("Pay Bob Durand in DL");
    const url = new URL(shared[0]!.url!);
    expect(url.pathname).toBe("/pay");
    expect(url.searchParams.get("rp")).toBe(String(await memberId("bob@example.com")));
    expect(url.searchParams.get("amount")).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("an empty dashboard says what to do next", () => {
  it("a member who just signed up sees that they have no wallet yet, and its button leads to creating one", async () => {
    const { page, context, errors } = await newPage(suite.browser, { phone: true });
    await page.goto(`${suite.server.url}/signup`);
    await page.getByLabel("Email").fill("nina.new@example.org");
    await page.getByLabel("Firstname").fill("Nina");
    await page.getByLabel("Lastname").fill("New");
    await page.getByLabel("Password", { exact: true }).fill("Sunny-Day-42");
    await page.getByLabel("Confirm password").fill("Sunny-Day-42");
    await page.getByRole("button", { name: "Sign up" }).tap();
    await toastText(page, "Your account has been created successfully.");
    await page.waitForURL(`${suite.server.url}/`);
    // The link mailed to the new address, opened as the member does: then the password signs in.
    await confirmAddress(page, suite.server, "nina.new@example.org");
    await page.getByLabel("Password", { exact: true }).fill("Sunny-Day-42");
    await page.getByRole("button", { name: "Sign in" }).tap();
    await page.waitForURL(`${suite.server.url}/dashboard`);
    const accounts = page.getByRole("region", { name: "Your accounts" });
    await accounts.getByText("You don't have any wallet yet.").waitFor();
    await accounts.getByText("Create your wallet to pay and receive payments.").waitFor();
    await shot(page, "dashboard-no-wallet");
    await accounts.getByRole("link", { name: "Create my wallet" }).tap();
    await page.waitForURL(`${suite.server.url}/create-account`);
    // Each kind says what it means, in a sentence, as it is chosen.
    await page.getByRole("radio", { name: "Demo Lokal", exact: true }).tap();
    await page.getByText("Held by the association: you pay once signed in, with nothing to keep on this device.").waitFor();
    await page.getByRole("radio", { name: /signed wallet/ }).tap();
    await page.getByText(/^Signed on your device: each payment is signed here with your wallet password/).waitFor();
    await shot(page, "create-wallet-kinds");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("dan's wallet waiting for approval says so; once approved, his empty account says how to receive a first payment and shows his QR code", async () => {
    const waiting = await phone("dan@example.com");
    const accounts = waiting.page.getByRole("region", { name: "Your accounts" });
    await accounts.getByText("Your wallet is waiting for approval").waitFor();
    await accounts.getByText(/Once yours is approved, you can pay and receive payments here/).waitFor();
    expect(await accounts.getByRole("link", { name: "Create my wallet" }).count()).toBe(0);
    await shot(waiting.page, "dashboard-wallet-pending");
    await waiting.context.close();

    // An administrator approves Dan's wallet.
    const admin = await login("accounts@example.com");
    const auth = { authorization: `Bearer ${admin.token}`, "content-type": "application/json" };
    const staging = (await (await fetch(`${suite.server.url}/api/admin/pending-accounts`, { headers: auth })).json()) as { walletId: string; name: string }[];
    const dans = staging.find((s) => s.name.startsWith("Dan"))!;
    const approved = await fetch(`${suite.server.url}/api/admin/pending-accounts/validate`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ walletId: dans.walletId }),
    });
    expect(approved.status).toBe(200);

    const { page, context, errors } = await phone("dan@example.com");
    const transactions = page.getByRole("region", { name: "Recent activity" });
    await transactions.getByText("No payments yet").waitFor();
    await transactions.getByText("Show your QR code or share your payment link to receive your first payment.").waitFor();
    expect(await page.getByText("Your wallet is waiting for approval").count()).toBe(0);
    await shot(page, "dashboard-no-transactions");
    await transactions.getByRole("button", { name: "Show my QR code" }).tap();
    const qr = page.getByRole("dialog", { name: "QR code" });
    await qr.getByRole("button", { name: "Copy link" }).waitFor();
    expect(await paymentLink(qr)).toContain(`/pay?rp=${await memberId("dan@example.com")}&`);
    expect(errors).toEqual([]);
    await context.close();
  });
});
