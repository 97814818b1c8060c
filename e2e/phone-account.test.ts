import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { paymentLink } from "@mutua/domain";
import { newPage, toastText } from "./support/browser";
import { startMailbox, type Mailbox } from "./support/mailbox";
import { signedIn, useSuite } from "./support/suite";
import { startPayment } from "./pages/payments";

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
  const login = await fetch(`${suite.server.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login: email, password: "Demo1234!" }),
  });
  const { token, profile } = (await login.json()) as { token: string; profile: { id: number } };
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
    await page.getByLabel("Email").fill("alice@example.com");
    await page.getByLabel("Password", { exact: true }).fill("Demo1234!");
    await page.getByRole("button", { name: "Sign in" }).tap();
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
    await page.getByLabel("Email").fill("Eve.Phone@Example.org");
    // A first name tapped into and left empty says so, as soon as the member moves on.
    await page.getByLabel("Firstname").tap();
    await page.getByLabel("Lastname").tap();
    const first = page.getByLabel("Firstname");
    await page
      .locator(`#${await first.getAttribute("aria-describedby")}`)
      .filter({ hasText: "This fiels can not be empty." })
      .waitFor();
    await first.fill("Eve");
    await page.getByLabel("Lastname").fill("Phone");
    await page.getByLabel("Password", { exact: true }).fill("Sunny-Day-42");
    await page.getByLabel("Confirm password").fill("Sunny-Day-42");
    await page.getByRole("button", { name: "Sign up" }).tap();
    await toastText(page, "Your account has been created successfully.");
    await page.waitForURL(`${suite.server.url}/`);
    expect(await page.getByLabel("Email").inputValue()).toBe("eve.phone@example.org");
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("password");

    await page.goto(`${suite.server.url}/reset-password`);
    await page.getByLabel("Email").fill("Bob@Example.com");
    await page.getByRole("button", { name: "Reset password" }).tap();
    await toastText(page, "An e-mail with a link to choose a new password has been sent to bob@example.com.");
    await page.waitForURL(`${suite.server.url}/`);
    expect(await page.getByLabel("Email").inputValue()).toBe("bob@example.com");
    await context.close();
  });

  it("creating a wallet says it was created and waits for approval", async () => {
    const carol = await signedIn(suite, "carol@example.com", "Demo1234!", { phone: true });
    await carol.page.goto(`${suite.server.url}/create-account`);
    await carol.page.getByRole("button", { name: "Create my wallet" }).tap();
    await toastText(carol.page, "Your wallet was created. It can be used once an administrator has approved it.");
    await carol.page.waitForURL(`${suite.server.url}/dashboard`);
    await carol.context.close();
  });

  it("exporting a wallet warns first; importing the member's own wallet again says it replaced it", async () => {
    const { page, context, errors } = await signedIn(suite, "carol@example.com", "Demo1234!", { phone: true });
    await page.getByRole("button", { name: "Account actions" }).tap();
    await page.getByRole("menuitem", { name: "Export wallet" }).tap();
    const warning = page.getByRole("dialog", { name: "Export the wallet file?" });
    await warning.getByText(/Anyone who has the file and the password can spend this wallet's money/).waitFor();
    await shot(page, "export-warning");
    // Cancel leaves nothing behind.
    await warning.getByRole("button", { name: "Cancel" }).tap();
    await warning.waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Account actions" }).tap();
    await page.getByRole("menuitem", { name: "Export wallet" }).tap();
    const [download] = await Promise.all([page.waitForEvent("download"), warning.getByRole("button", { name: "Export" }).tap()]);
    const exported = fs.readFileSync(await download.path(), "utf8");

    // Uploading a wallet file is in the wallet's menu, out of the first screen.
    await page.getByRole("button", { name: "Account actions" }).tap();
    const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("menuitem", { name: "Upload wallet file..." }).tap()]);
    await chooser.setFiles({ name: download.suggestedFilename(), mimeType: "application/json", buffer: Buffer.from(exported) });
    const auth = page.getByRole("dialog", { name: "Authentication" });
    await auth.getByRole("textbox").or(auth.locator("input[type=password]")).first().fill("Demo1234!");
    await auth.getByRole("button", { name: "Send" }).tap();
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
    await send2.getByRole("button", { name: "Send", exact: true }).tap();
    await send2.getByRole("button", { name: "Confirm and send" }).tap();

    const receipt = page.getByRole("dialog", { name: "Payment confirmation" });
    await receipt.getByText("Sent 1.50 DL").waitFor();
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
    await page.getByRole("navigation", { name: "Shortcuts" }).getByRole("button", { name: "Menu" }).tap();
    await page.getByRole("menuitem", { name: "Profile" }).tap();
    await page.waitForURL(`${suite.server.url}/profile`);
    await page.getByRole("heading", { name: "Profile" }).waitFor();
    await page.getByText("alice@example.com").waitFor();
    await page.getByRole("heading", { name: "Alice Martin" }).waitFor();
    await shot(page, "profile");
    expect(errors).toEqual([]);
    await context.close();
  });
});
