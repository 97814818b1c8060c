import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { paymentLink } from "@mutua/domain";
import { newPage, toastText } from "./support/browser";
import { startMailbox, type Mailbox } from "./support/mailbox";
import { signedIn, useSuite } from "./support/suite";
import { sendPayment, startPayment } from "./pages/payments";
import {
  apiSession,
  askPasswordReset,
  emailField,
  fieldSays,
  fillSignIn,
  fillSignUp,
  openProfileFromPhoneMenu,
  pressSignIn,
  signUpForm,
} from "./pages/members";
import { askToExportWallet, createWallet, exportWallet, importWalletFile, openWalletCreation, unlockWithPassword } from "./pages/wallets";

/**
 * On a 360×740 touch phone: a payment link opened while signed out, the feedback
 * after signing up, asking for a reset, creating, re-importing and exporting a wallet,
 * the Profile entry and the sign-up's empty first name.
 */
let mailbox: Mailbox;
beforeAll(async () => {
  mailbox = await startMailbox();
});
afterAll(async () => {
  await mailbox?.close();
});
const suite = useSuite(() => ({ SMTP_URL: mailbox.url }));
const SCREENS = path.resolve(import.meta.dirname, "../test-results/screens");
const shot = async (page: Page, name: string) => {
  fs.mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS, `${name}-360x740.png`) });
};

/** A member's id and first wallet, from the API as the member. */
async function memberAndWallet(email: string): Promise<{ id: number; walletId: string }> {
  const { token, profile } = await apiSession(suite.server.url, email);
  const accounts = (await (await fetch(`${suite.server.url}/api/accounts`, { headers: { authorization: `Bearer ${token}` } })).json()) as { id: string }[];
  return { id: profile.id, walletId: accounts[0]!.id };
}

describe("a payment link opened while signed out", () => {
  it("asks to sign in, then opens that payment", async () => {
    const bob = await memberAndWallet("bob@example.com");
    const link = paymentLink(suite.server.url, { rp: bob.id, rpb: bob.walletId, amount: "7.25", senderMemo: "Bread", recipientMemo: "Bread" });
    const { page, context, errors } = await newPage(suite.browser, { phone: true });
    await page.goto(link);
    await page.waitForURL(`${suite.server.url}/`);
    await page.getByText("Sign in to open the payment request: it is shown as soon as you are signed in.").waitFor();
    expect(await page.getByText(/No map is available/).count()).toBe(0);
    await shot(page, "pay-link-signed-out");
    await fillSignIn(page, { email: "alice@example.com", password: "Demo1234!" });
    await pressSignIn(page, { touch: true });
    const step2 = page.getByRole("dialog", { name: "Send money - 2/2" });
    await step2.getByText("Bob Durand").first().waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("feedback after each action", () => {
  it("after signing up and after asking for a reset, the login page opens on the member's address", async () => {
    const { page, context } = await newPage(suite.browser, { phone: true });
    await page.goto(`${suite.server.url}/signup`);
    const form = signUpForm(page);
    await form.email.fill("Eve.Phone@Example.org");
    // A first name tapped into and left empty says so, as soon as the member moves on.
    await form.first.tap();
    await form.last.tap();
    await fieldSays(form.first, "This fiels can not be empty.");
    await fillSignUp(page, { first: "Eve", last: "Phone", password: "Sunny-Day-42" });
    await form.submit.tap();
    await toastText(page, "Your account has been created successfully.");
    await page.waitForURL(`${suite.server.url}/`);
    expect(await emailField(page).inputValue()).toBe("eve.phone@example.org");
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("password");

    await page.goto(`${suite.server.url}/reset-password`);
    await askPasswordReset(page, "Bob@Example.com", { touch: true });
    await toastText(page, "An e-mail with a link to choose a new password has been sent to bob@example.com.");
    await page.waitForURL(`${suite.server.url}/`);
    expect(await emailField(page).inputValue()).toBe("bob@example.com");
    await context.close();
  });

  it("creating a wallet says it was created and waits for approval", async () => {
    const carol = await signedIn(suite, "carol@example.com", "Demo1234!", { phone: true });
    await openWalletCreation(carol.page, suite.server.url);
    await createWallet(carol.page, { touch: true });
    await toastText(carol.page, "Your wallet was created. It can be used once an administrator has approved it.");
    await carol.page.waitForURL(`${suite.server.url}/dashboard`);
    await carol.context.close();
  });

  it("exporting a wallet warns first; importing the member's own wallet again says it replaced it", async () => {
    const { page, context, errors } = await signedIn(suite, "carol@example.com", "Demo1234!", { phone: true });
    const warning = await askToExportWallet(page, { touch: true });
    await warning.getByText(/Anyone who has the file and the password can spend this wallet's money/).waitFor();
    await shot(page, "export-warning");
    // Cancel leaves nothing behind.
    await warning.getByRole("button", { name: "Cancel" }).tap();
    await warning.waitFor({ state: "detached" });
    const download = await exportWallet(page, { touch: true });
    const exported = fs.readFileSync(await download.path(), "utf8");

    // Uploading a wallet file is in the wallet's menu, out of the first screen.
    await importWalletFile(page, download.suggestedFilename(), exported, { touch: true, fromMenu: true, mimeType: "application/json" });
    await unlockWithPassword(page, "Demo1234!", { touch: true });
    await toastText(page, "This wallet was already yours: its file on the server was replaced by the one you imported.");
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("a receipt after every payment", () => {
  it("names both members, the memo, the local time and a reference; shares (copied here) and downloads as a PDF", async () => {
    // A member in Paris, on a server that keeps UTC: the receipt says the time of Paris.
    const { page, context, errors } = await signedIn(suite, "alice@example.com", "Demo1234!", { phone: true, timezoneId: "Europe/Paris" });
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const send2 = await startPayment(page, "durand", "Bob Durand", "1.50", "Receipt test");
    const receipt = await sendPayment(page, send2, "1.50");
    const rows = await receipt.locator("dl.receipt").innerText();
    // The spec's exact date, in Paris's offset, among the details.
    expect(rows).toMatch(/From\s+Alice Martin\s+To\s+Bob Durand\s+Date\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+0[12]:00\s+Reference\s+tx_[0-9a-f]{24}/);
    const reference = /tx_[0-9a-f]{24}/.exec(rows)![0];
    await shot(page, "receipt");

    // Headless Chromium on Linux has no share sheet: the receipt goes to the clipboard, and says so.
    await receipt.getByRole("button", { name: "Share receipt" }).tap();
    await toastText(page, "The receipt was copied: paste it where you want to keep or send it.");
    const text = await page.evaluate(() => navigator.clipboard.readText());
    expect(text).toContain("Payment receipt\nAmount: 1.50 DL\nFrom: Alice Martin\nTo: Bob Durand\nMemo: Receipt test\n");
    expect(text).toContain(`Reference: ${reference}`);
    // The member's own clock, in words, not a UTC stamp.
    const parisHour = new Intl.DateTimeFormat("en-US", { timeZone: "Europe/Paris", hour: "numeric", hour12: true }).format(new Date()).replace(/\s?[AP]M/, "");
    expect(text).toMatch(new RegExp(`Date: [A-Z][a-z]+ \\d{1,2}, \\d{4} at ${parisHour}:\\d{2}\\s?[AP]M`));

    const [download] = await Promise.all([page.waitForEvent("download"), receipt.getByRole("button", { name: "Download receipt" }).tap()]);
    expect(download.suggestedFilename()).toBe(`Payment receipt ${reference}.pdf`);
    const pdf = fs.readFileSync(await download.path(), "latin1");
    expect(pdf.startsWith("%PDF-")).toBe(true);
    for (const part of ["Alice Martin", "Bob Durand", "1.50 DL", "Receipt test", reference]) expect(pdf, part).toContain(part);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("the member's profile", () => {
  it("is in the user menu and shows who the member is", async () => {
    const { page, context, errors } = await signedIn(suite, "alice@example.com", "Demo1234!", { phone: true });
    await openProfileFromPhoneMenu(page);
    await page.getByText("alice@example.com").waitFor();
    await page.getByRole("heading", { name: "Alice Martin" }).waitFor();
    await shot(page, "profile");
    expect(errors).toEqual([]);
    await context.close();
  });
});
