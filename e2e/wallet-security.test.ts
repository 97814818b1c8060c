import fs from "node:fs";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { encryptKeystore, newPrivateKey } from "@mutua/wallet";
import { newPage, signIn, toastText } from "./support/browser";
import { signedIn, useSuite } from "./support/suite";

const suite = useSuite();

async function approve(name: string) {
  const admin = await signedIn(suite, "accounts@example.com");
  await admin.page.goto(`${suite.server.url}/admin/pending-accounts`);
  const row = admin.page.locator("tr").filter({ hasText: name });
  await row.getByRole("button", { name: "Approve" }).click();
  const ask = admin.page.getByRole("dialog", { name: "Approve this wallet request?" });
  await ask.getByText(name, { exact: true }).waitFor();
  await ask.getByRole("button", { name: "Approve" }).click();
  await toastText(admin.page, `User ${name}'s account creation was approved or discarded`);
  await admin.context.close();
}

/**
 * Starts a payment up to the point where it is sent; by default to Carol, who has only a ledger
 * wallet, so it is paid from the payer's ledger wallet.
 */
async function payFromWallet(page: Page, amount: string, [search, name] = ["carol", "Carol Petit"]) {
  await page.locator(".accounts button.account").filter({ hasText: "Wallet" }).first().click();
  await page.getByRole("button", { name: "Pay" }).click();
  const step1 = page.getByRole("dialog", { name: "Send money - 1/2" });
  await step1.getByPlaceholder("Name, email address or phone number").fill(search);
  await step1
    .getByRole("button", { name: new RegExp(`^${name}`) })
    .first()
    .click();
  const step2 = page.getByRole("dialog", { name: "Send money - 2/2" });
  await step2.getByLabel("Amount").fill(amount);
  await step2.getByRole("button", { name: "Send", exact: true }).click();
  await step2.getByRole("button", { name: "Confirm and send" }).click();
}

async function confirmed(page: Page, amount: string) {
  const confirmation = page.getByRole("dialog", { name: "Payment confirmation" });
  await confirmation.getByText(`Sent ${amount} DL`).waitFor({ timeout: 30_000 });
  await confirmation.getByRole("button", { name: "Ok" }).click();
  const favorite = page.getByRole("dialog", { name: "Add as favorite" });
  await favorite.getByRole("button", { name: "Later" }).click();
  await favorite.waitFor({ state: "detached" });
}

const authDialog = (page: Page) => page.getByRole("dialog", { name: "Authentication" });

describe("wallet creation and PINs", () => {
  it("a member creates a ledger wallet with a PIN; pays with it within the retention time; 5 wrong PINs fall back to the password", async () => {
    const { page, context, errors } = await signedIn(suite, "bob@example.com");
    await page.goto(`${suite.server.url}/create-account`);
    const create = page.getByRole("button", { name: "Create my wallet" });
    const pinSwitch = page.getByRole("switch", { name: "Simplified authentication for this device" });
    await page.getByLabel("Password", { exact: true }).fill("weak");
    await page.getByText("Password must be at least 8 characters long").waitFor();
    expect(await pinSwitch.isDisabled()).toBe(true);
    await page.getByLabel("Password", { exact: true }).fill("weakweakweak");
    await page.getByText("Password should use at least one lowercase character, uppercase character, digit, symbol").waitFor();
    await page.getByLabel("Password", { exact: true }).fill("Wallet-Pass-9");
    await page.getByLabel("Password confirmation").fill("Wallet-Pass-9");
    expect(await create.isDisabled()).toBe(false);

    // The PIN block locks the password and needs a valid, confirmed PIN before Create.
    await pinSwitch.check();
    expect(await page.getByLabel("Password", { exact: true }).getAttribute("readonly")).not.toBeNull();
    const pin = page.getByLabel("PIN code", { exact: true });
    await pin.pressSequentially("12a");
    expect(await pin.inputValue()).toBe("12");
    await page.getByText("PIN code must contain 4 digits").waitFor();
    expect(await create.isDisabled()).toBe(true);
    await pin.pressSequentially("34");
    const confirmPin = page.getByLabel("PIN code confirmation");
    await confirmPin.fill("1235");
    await page.getByText("Given PINs are different").waitFor();
    expect(await create.isDisabled()).toBe(true);
    await confirmPin.fill("1234");
    await create.click();
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await page.locator(".pending-accounts").getByText("Wallet").waitFor();
    // Only the encrypted file and the PIN's public parts are kept: no password, no PIN in the browser.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(stored).not.toContain("Wallet-Pass-9");
    // The PIN is digits, which random hex also holds: look for it as a value of its own.
    const leaves = (v: unknown): string[] =>
      typeof v === "string" ? [v, ...(v.startsWith("{") ? leaves(JSON.parse(v)) : [])] : v && typeof v === "object" ? Object.values(v).flatMap(leaves) : [];
    expect(leaves(JSON.parse(stored))).not.toContain("1234");

    await approve("Bob Durand");
    await page.getByRole("button", { name: "Refresh" }).click();
    await page.locator(".accounts button.account").filter({ hasText: "Wallet" }).first().waitFor();

    // First payment: the PIN is asked; a wrong one says so, the right one pays.
    await payFromWallet(page, "5");
    const auth = authDialog(page);
    await auth.getByLabel("PIN code", { exact: true }).pressSequentially("9999");
    await auth.getByRole("alert").getByText("Failed authentication. Please try again.").waitFor();
    await auth.getByText("4 attempts left before this PIN is disabled.").waitFor();
    await auth.getByLabel("PIN code", { exact: true }).pressSequentially("1234");
    await confirmed(page, "5.00");

    // Within the retention time nothing is asked.
    await payFromWallet(page, "1");
    await confirmed(page, "1.00");
    expect(await authDialog(page).count()).toBe(0);

    // Signing out forgets the unlocked key: the PIN is asked again.
    await page.getByRole("button", { name: "Bob Durand" }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.waitForURL(`${suite.server.url}/`);
    await page.getByLabel("Password", { exact: true }).fill("Demo1234!");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await payFromWallet(page, "2");
    for (let i = 0; i < 4; i++) {
      await auth.getByLabel("PIN code", { exact: true }).pressSequentially("0000");
      await auth.getByText(`${4 - i} attempt${4 - i === 1 ? "" : "s"} left before this PIN is disabled.`).waitFor();
    }
    await auth.getByLabel("PIN code", { exact: true }).pressSequentially("0000");
    await toastText(page, "Too many wrong PINs: this PIN is now disabled. Please enter your wallet password.");
    // The PIN is gone, even the right one would not do: the wallet password is asked.
    await auth.getByLabel("Enter your wallet password").fill("Wallet-Pass-9");
    await auth.getByRole("button", { name: "Send" }).click();
    await confirmed(page, "2.00");
    expect(await page.evaluate(() => localStorage.getItem("mutua.authConfig"))).toBe("{}");
    expect(errors).toEqual([]);
    await context.close();
  });
});

/**
 * Chooses a file as a member picking it would: from the wallet's menu, or, for a member with no
 * wallet yet, from the button that is then their first step.
 */
async function importFile(page: Page, name: string, content: string | Buffer) {
  const button = page.getByRole("button", { name: "Upload wallet file..." });
  const menu = page.getByRole("button", { name: "Account actions" });
  await button.or(menu).first().waitFor();
  const upload = (await button.count()) > 0 ? button : (await menu.click(), page.getByRole("menuitem", { name: "Upload wallet file..." }));
  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), upload.click()]);
  await chooser.setFiles({ name, mimeType: "application/octet-stream", buffer: Buffer.from(content) });
}

describe("wallet files", () => {
  it("carol exports her wallet, imports it on a browser that has nothing of it, and pays again; bad files say why", async () => {
    const carol = await signedIn(suite, "carol@example.com");
    await carol.page.getByRole("button", { name: "Account actions" }).click();
    await carol.page.getByRole("menuitem", { name: "Export wallet" }).click();
    const [download] = await Promise.all([
      carol.page.waitForEvent("download"),
      carol.page.getByRole("dialog", { name: "Export the wallet file?" }).getByRole("button", { name: "Export" }).click(),
    ]);
    const file = JSON.parse(fs.readFileSync(await download.path(), "utf8"));
    expect(download.suggestedFilename()).toBe(`DL_ledger_${file.address}.json`);
    expect(file).toMatchObject({ version: 3, crypto: { cipher: "aes-128-ctr" } });
    const exported = JSON.stringify(file, null, 4);
    await carol.context.close();

    // A new browser: no storage, no cookie, no kept key.
    const { page, context, errors } = await newPage(suite.browser);
    await signIn(page, suite.server.url, "carol@example.com", "Demo1234!");
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await importFile(page, "photo.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe]));
    await toastText(page, "Unexpected type of file");
    await importFile(page, "wallet.json", "{ this is not json");
    await toastText(page, "Unexpected format of file");
    await importFile(page, "wallet.json", '{"hello": "world"}');
    await toastText(page, "This file is not a wallet file.");

    // The registration failing on the server says so, with the hint.
    await page.route("**/api/wallets/register", (r) => r.fulfill({ status: 500, body: "" }));
    await importFile(page, download.suggestedFilename(), exported);
    const auth = authDialog(page);
    await auth.getByLabel("Enter your wallet password").fill("Demo1234!");
    await auth.getByRole("button", { name: "Send" }).click();
    await toastText(page, "Wallet registration unexpectedly failed. Please try again or contact your administrator");
    await page.unroute("**/api/wallets/register");

    await importFile(page, download.suggestedFilename(), exported);
    await auth.getByLabel("Enter your wallet password").fill("Not-the-password-1");
    await auth.getByRole("button", { name: "Send" }).click();
    await auth.getByRole("alert").getByText("Failed authentication. Please try again.").waitFor();
    await auth.getByLabel("Enter your wallet password").fill("Demo1234!");
    await auth.getByRole("button", { name: "Send" }).click();
    // The wallet was already Carol's, on the server: her file replaced the one it kept.
    await toastText(page, "This wallet was already yours: its file on the server was replaced by the one you imported.");

    await payFromWallet(page, "3", ["alice", "Alice Martin"]);
    await auth.getByLabel("Enter your wallet password").fill("Demo1234!");
    await auth.getByRole("button", { name: "Send" }).click();
    await confirmed(page, "3.00");
    expect(errors).toEqual([]);

    // The file is Carol's: nobody else can register it.
    const dan = await signedIn(suite, "dan@example.com");
    await importFile(dan.page, download.suggestedFilename(), exported);
    await authDialog(dan.page).getByLabel("Enter your wallet password").fill("Demo1234!");
    await authDialog(dan.page).getByRole("button", { name: "Send" }).click();
    await toastText(dan.page, "This wallet is already registered to another member.");
    await dan.context.close();
    await context.close();
  });

  it("imports a new wallet file made by Comchain's tools (scrypt N=1024); it waits for approval", async () => {
    const keystore = await encryptKeystore(newPrivateKey(), "Comchain-Pass-3", { n: 1024 });
    const { page, context } = await signedIn(suite, "dan@example.com");
    await importFile(page, "comchain.dat", JSON.stringify(keystore));
    await authDialog(page).getByLabel("Enter your wallet password").fill("Comchain-Pass-3");
    await authDialog(page).getByRole("button", { name: "Send" }).click();
    await toastText(page, "The wallet file was imported. The wallet can be used once an administrator has approved it.");
    await page.locator(".pending-accounts").getByText("Demo Lokal · signed wallet").waitFor();
    await context.close();
  });
});

describe("simplified authentication in Preferences", () => {
  it("turns the PIN on, edits it and turns it off, each behind a challenge", async () => {
    const { page, context, errors } = await signedIn(suite, "carol@example.com");
    const auth = authDialog(page);
    await page.getByRole("button", { name: "Carol Petit" }).click();
    await page.getByRole("menuitem", { name: "Settings" }).click();
    await page.getByRole("heading", { name: "Security settings" }).waitFor();
    const toggle = page.getByRole("switch", { name: "Simplified authentication for this device" });
    expect(await toggle.isChecked()).toBe(false);

    // Cancelling the challenge changes nothing.
    await toggle.click();
    await auth.getByRole("button", { name: "Cancel" }).click();
    await toastText(page, "Operation canceled");
    expect(await toggle.isChecked()).toBe(false);

    // On: the wallet password (it becomes the PIN's secret), then the editor.
    await toggle.click();
    await auth.getByLabel("Enter your wallet password").fill("Demo1234!");
    await auth.getByRole("button", { name: "Send" }).click();
    const save = page.getByRole("button", { name: "Save" });
    await page.getByLabel("PIN code", { exact: true }).pressSequentially("4321");
    expect(await save.count()).toBe(0);
    await page.getByLabel("PIN code confirmation").pressSequentially("4312");
    await page.getByText("Given PINs are different").waitFor();
    expect(await save.count()).toBe(0);
    await page.getByLabel("PIN code confirmation").fill("4321");
    await save.click();
    await toastText(page, "Edits were successfully saved");
    expect(await toggle.isChecked()).toBe(true);

    // The next payment asks the PIN.
    await page.getByRole("link", { name: "Dashboard" }).click();
    await payFromWallet(page, "1", ["alice", "Alice Martin"]);
    await auth.getByLabel("PIN code", { exact: true }).pressSequentially("4321");
    await confirmed(page, "1.00");

    // Edit: the current PIN opens the editor for a new one.
    await page.getByRole("button", { name: "Carol Petit" }).click();
    await page.getByRole("menuitem", { name: "Settings" }).click();
    await page.getByRole("button", { name: "Edit" }).click();
    await auth.getByLabel("PIN code", { exact: true }).pressSequentially("4321");
    await auth.waitFor({ state: "detached" });
    await page.getByLabel("PIN code", { exact: true }).pressSequentially("8642");
    await page.getByLabel("PIN code confirmation").pressSequentially("8642");
    await save.click();
    await toastText(page, "Edits were successfully saved");

    // Off: the new PIN is the challenge; the device forgets it and so does the server.
    const before = JSON.parse((await page.evaluate(() => localStorage.getItem("mutua.authConfig"))) ?? "{}");
    const pinId = (Object.values(before)[0] as { pinId: string }).pinId;
    await toggle.click();
    await auth.getByLabel("PIN code", { exact: true }).pressSequentially("8642");
    await page.getByRole("switch", { name: "Simplified authentication for this device", checked: false }).waitFor();
    await toastText(page, "Edits were successfully saved");
    expect(await page.evaluate(() => localStorage.getItem("mutua.authConfig"))).toBe("{}");
    const status = await page.evaluate(async (id) => (await fetch(`/api/pins/${id}`, { method: "DELETE" })).status, pinId);
    expect(status).toBe(404);
    expect(errors).toEqual([]);
    await context.close();
  });
});
