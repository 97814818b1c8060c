import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { encryptKeystore, newPrivateKey } from "@mutua/wallet";
import { newPage, toastText } from "./support/browser";
import { signedIn, useSuite } from "./support/suite";
import { fillSignIn, openPreferences, pressSignIn, signInToDashboard, signOut } from "./pages/members";
import {
  approveWalletRequest,
  authDialog,
  cancelUnlock,
  exportWallet,
  importWalletFile,
  openWalletCreation,
  paidFromWallet,
  payFromWallet,
  pendingWallets,
  pinEditor,
  pinSwitch,
  saveNewPin,
  unlockWithPassword,
  unlockWithPin,
  walletAccount,
  walletCreationForm,
} from "./pages/wallets";

const suite = useSuite();

/** accounts@ approves the wallet request of the member `name`, in a session of their own. */
async function approve(name: string) {
  const admin = await signedIn(suite, "accounts@example.com");
  await admin.page.goto(`${suite.server.url}/admin/pending-accounts`);
  await approveWalletRequest(admin.page, name);
  await admin.context.close();
}

describe("wallet creation and PINs", () => {
  it("a member creates a ledger wallet with a PIN; pays with it within the retention time; 5 wrong PINs fall back to the password", async () => {
    const { page, context, errors } = await signedIn(suite, "bob@example.com");
    await openWalletCreation(page, suite.server.url);
    const form = walletCreationForm(page);
    await form.password.fill("weak");
    await page.getByText("Password must be at least 8 characters long").waitFor();
    expect(await form.pinSwitch.isDisabled()).toBe(true);
    await form.password.fill("weakweakweak");
    await page.getByText("Password should use at least one lowercase character, uppercase character, digit, symbol").waitFor();
    await form.password.fill("Wallet-Pass-9");
    await form.confirmation.fill("Wallet-Pass-9");
    expect(await form.create.isDisabled()).toBe(false);

    // The PIN block locks the password and needs a valid, confirmed PIN before Create.
    await form.pinSwitch.check();
    expect(await form.password.getAttribute("readonly")).not.toBeNull();
    await form.pin.pressSequentially("12a");
    expect(await form.pin.inputValue()).toBe("12");
    await page.getByText("PIN code must contain 4 digits").waitFor();
    expect(await form.create.isDisabled()).toBe(true);
    await form.pin.pressSequentially("34");
    await form.pinConfirmation.fill("1235");
    await page.getByText("Given PINs are different").waitFor();
    expect(await form.create.isDisabled()).toBe(true);
    await form.pinConfirmation.fill("1234");
    await form.create.click();
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await pendingWallets(page).getByText("Wallet").waitFor();
    // Only the encrypted file and the PIN's public parts are kept: no password, no PIN in the browser.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(stored).not.toContain("Wallet-Pass-9");
    // The PIN is digits, which random hex also holds: look for it as a value of its own.
    const leaves = (v: unknown): string[] =>
      typeof v === "string" ? [v, ...(v.startsWith("{") ? leaves(JSON.parse(v)) : [])] : v && typeof v === "object" ? Object.values(v).flatMap(leaves) : [];
    expect(leaves(JSON.parse(stored))).not.toContain("1234");

    await approve("Bob Durand");
    await page.getByRole("button", { name: "Refresh" }).click();
    await walletAccount(page).first().waitFor();

    // First payment: the PIN is asked; a wrong one says so, the right one pays.
    await payFromWallet(page, "5");
    const auth = await unlockWithPin(page, "9999");
    await auth.getByRole("alert").getByText("Failed authentication. Please try again.").waitFor();
    await auth.getByText("4 attempts left before this PIN is disabled.").waitFor();
    await unlockWithPin(page, "1234");
    await paidFromWallet(page, "5.00");

    // Within the retention time nothing is asked.
    await payFromWallet(page, "1");
    await paidFromWallet(page, "1.00");
    expect(await authDialog(page).count()).toBe(0);

    // Signing out forgets the unlocked key: the PIN is asked again. (Signed in again on the page
    // the sign-out left, its e-mail remembered: no reload forgets the key in its place.)
    await signOut(page, "Bob Durand");
    await fillSignIn(page, { password: "Demo1234!" });
    await pressSignIn(page);
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await payFromWallet(page, "2");
    for (let i = 0; i < 4; i++) {
      await unlockWithPin(page, "0000");
      await auth.getByText(`${4 - i} attempt${4 - i === 1 ? "" : "s"} left before this PIN is disabled.`).waitFor();
    }
    await unlockWithPin(page, "0000");
    await toastText(page, "Too many wrong PINs: this PIN is now disabled. Please enter your wallet password.");
    // The PIN is gone, even the right one would not do: the wallet password is asked.
    await unlockWithPassword(page, "Wallet-Pass-9");
    await paidFromWallet(page, "2.00");
    expect(await page.evaluate(() => localStorage.getItem("mutua.authConfig"))).toBe("{}");
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("wallet files", () => {
  it("carol exports her wallet, imports it on a browser that has nothing of it, and pays again; bad files say why", async () => {
    const carol = await signedIn(suite, "carol@example.com");
    const download = await exportWallet(carol.page);
    const file = JSON.parse(fs.readFileSync(await download.path(), "utf8"));
    expect(download.suggestedFilename()).toBe(`DL_ledger_${file.address}.json`);
    expect(file).toMatchObject({ version: 3, crypto: { cipher: "aes-128-ctr" } });
    const exported = JSON.stringify(file, null, 4);
    await carol.context.close();

    // A new browser: no storage, no cookie, no kept key.
    const { page, context, errors } = await newPage(suite.browser);
    await signInToDashboard(page, suite.server.url, "carol@example.com");
    await importWalletFile(page, "photo.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe]));
    await toastText(page, "Unexpected type of file");
    await importWalletFile(page, "wallet.json", "{ this is not json");
    await toastText(page, "Unexpected format of file");
    await importWalletFile(page, "wallet.json", '{"hello": "world"}');
    await toastText(page, "This file is not a wallet file.");

    // The registration failing on the server says so, with the hint.
    await page.route("**/api/wallets/register", (r) => r.fulfill({ status: 500, body: "" }));
    await importWalletFile(page, download.suggestedFilename(), exported);
    await unlockWithPassword(page, "Demo1234!");
    await toastText(page, "Wallet registration unexpectedly failed. Please try again or contact your administrator");
    await page.unroute("**/api/wallets/register");

    await importWalletFile(page, download.suggestedFilename(), exported);
    const auth = await unlockWithPassword(page, "Not-the-password-1");
    await auth.getByRole("alert").getByText("Failed authentication. Please try again.").waitFor();
    await unlockWithPassword(page, "Demo1234!");
    // The wallet was already Carol's, on the server: her file replaced the one it kept.
    await toastText(page, "This wallet was already yours: its file on the server was replaced by the one you imported.");

    await payFromWallet(page, "3", ["alice", "Alice Martin"]);
    await unlockWithPassword(page, "Demo1234!");
    await paidFromWallet(page, "3.00");
    expect(errors).toEqual([]);

    // The file is Carol's: nobody else can register it.
    const dan = await signedIn(suite, "dan@example.com");
    await importWalletFile(dan.page, download.suggestedFilename(), exported);
    await unlockWithPassword(dan.page, "Demo1234!");
    await toastText(dan.page, "This wallet is already registered to another member.");
    await dan.context.close();
    await context.close();
  });

  it("imports a new wallet file made by Comchain's tools (scrypt N=1024); it waits for approval", async () => {
    const keystore = await encryptKeystore(newPrivateKey(), "Comchain-Pass-3", { n: 1024 });
    const { page, context } = await signedIn(suite, "dan@example.com");
    await importWalletFile(page, "comchain.dat", JSON.stringify(keystore));
    await unlockWithPassword(page, "Comchain-Pass-3");
    await toastText(page, "The wallet file was imported. The wallet can be used once an administrator has approved it.");
    await pendingWallets(page).getByText("Demo Lokal · signed wallet").waitFor();
    await context.close();
  });
});

describe("simplified authentication in Preferences", () => {
  it("turns the PIN on, edits it and turns it off, each behind a challenge", async () => {
    const { page, context, errors } = await signedIn(suite, "carol@example.com");
    await openPreferences(page, "Carol Petit");
    await page.getByRole("heading", { name: "Security settings" }).waitFor();
    const toggle = pinSwitch(page);
    expect(await toggle.isChecked()).toBe(false);

    // Cancelling the challenge changes nothing.
    await toggle.click();
    await cancelUnlock(page);
    await toastText(page, "Operation canceled");
    expect(await toggle.isChecked()).toBe(false);

    // On: the wallet password (it becomes the PIN's secret), then the editor.
    await toggle.click();
    await unlockWithPassword(page, "Demo1234!");
    const editor = pinEditor(page);
    await editor.pin.pressSequentially("4321");
    expect(await editor.save.count()).toBe(0);
    await editor.confirmation.pressSequentially("4312");
    await page.getByText("Given PINs are different").waitFor();
    expect(await editor.save.count()).toBe(0);
    await editor.confirmation.fill("4321");
    await editor.save.click();
    await toastText(page, "Edits were successfully saved");
    expect(await toggle.isChecked()).toBe(true);

    // The next payment asks the PIN.
    await page.getByRole("link", { name: "Dashboard" }).click();
    await payFromWallet(page, "1", ["alice", "Alice Martin"]);
    await unlockWithPin(page, "4321");
    await paidFromWallet(page, "1.00");

    // Edit: the current PIN opens the editor for a new one.
    await openPreferences(page, "Carol Petit");
    await page.getByRole("button", { name: "Edit" }).click();
    const auth = await unlockWithPin(page, "4321");
    await auth.waitFor({ state: "detached" });
    await saveNewPin(page, "8642");

    // Off: the new PIN is the challenge; the device forgets it and so does the server.
    const before = JSON.parse((await page.evaluate(() => localStorage.getItem("mutua.authConfig"))) ?? "{}");
    const pinId = (Object.values(before)[0] as { pinId: string }).pinId;
    await toggle.click();
    await unlockWithPin(page, "8642");
    await page.getByRole("switch", { name: "Simplified authentication for this device", checked: false }).waitFor();
    await toastText(page, "Edits were successfully saved");
    expect(await page.evaluate(() => localStorage.getItem("mutua.authConfig"))).toBe("{}");
    const status = await page.evaluate(async (id) => (await fetch(`/api/pins/${id}`, { method: "DELETE" })).status, pinId);
    expect(status).toBe(404);
    expect(errors).toEqual([]);
    await context.close();
  });
});
