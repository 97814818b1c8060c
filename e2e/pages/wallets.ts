import type { Download, Locator, Page } from "playwright-core";
import { consoleSaid, toastText } from "../support/browser";
import { waitNoting } from "../support/noticed";
import { chooseFromMenu, menuEntry, openMenu } from "./app";
import type { Way } from "./members";
import { startPayment } from "./payments";

/**
 * A member's wallets as a page model: creating one (and an administrator approving it), unlocking
 * it with its PIN or its password when it signs a payment, the PIN of this device, exporting and
 * importing a wallet file, and the devices that sign in without the password (biometrics). The
 * words are the English ones; `touch` taps as on a phone, else a click.
 */

const press = (l: Locator, touch = false) => (touch ? l.tap() : l.click());

// ---------------------------------------------------------------------------------------------
// Creating a wallet, and its approval

/** The wallet creation screen, by its address on the server at `baseUrl`. */
export async function openWalletCreation(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/create-account`);
}

/** The wallet creation screen, from "Create my wallet" in the member's menu (under their name `name`). */
export async function openWalletCreationFromMenu(page: Page, name: string): Promise<void> {
  const creation = new URL("/create-account", page.url()).href;
  await openMenu(page, name);
  await page.locator("#user-menu").getByRole("menuitem", { name: "Create my wallet" }).click();
  await page.waitForURL(creation);
}

/** The wallet creation form: its backends, the wallet password twice, this device's PIN, Create my wallet. */
export const walletCreationForm = (page: Page) => ({
  backends: page.getByRole("radiogroup", { name: "Backend" }).getByRole("radio"),
  backend: (name: string) => page.getByRole("radio", { name, exact: true }),
  password: page.getByLabel("Password", { exact: true }),
  confirmation: page.getByLabel("Password confirmation"),
  pinSwitch: pinSwitch(page),
  pin: page.getByLabel("PIN code", { exact: true }),
  pinConfirmation: page.getByLabel("PIN code confirmation"),
  create: page.getByRole("button", { name: "Create my wallet" }),
});

/**
 * On the creation screen: the backend picked (when told), the wallet password typed twice (a
 * ledger wallet's), Create my wallet pressed. Where the member goes, or what they are told, is
 * the test's to read.
 */
export async function createWallet(page: Page, opts: Way & { backend?: string; password?: string } = {}): Promise<void> {
  const form = walletCreationForm(page);
  if (opts.backend !== undefined) await form.backend(opts.backend).click();
  if (opts.password !== undefined) {
    await form.password.fill(opts.password);
    await form.confirmation.fill(opts.password);
  }
  await press(form.create, opts.touch);
}

/** The dashboard's card of the member's wallets waiting for approval. */
export const pendingWallets = (page: Page): Locator => page.locator(".pending-accounts");

/** The cards of the member's accounts named `name` ("Wallet": a ledger wallet's; "Main account"). */
export const walletAccount = (page: Page, name = "Wallet"): Locator => page.locator(".accounts button.account").filter({ hasText: name });

/** An administrator's row of the wallet request of the member `name` (Account requests). */
export const walletRequest = (page: Page, name: string): Locator => page.locator("tr").filter({ hasText: name });

/** An administrator's Account requests, from their menu (under their name `admin`). */
export async function openWalletRequests(page: Page, admin: string): Promise<void> {
  await chooseFromMenu(page, admin, "Account requests");
}

/** Approve (or Discard) on the row of the member `name`'s wallet request: the question, once it names them. */
export async function askToDecide(page: Page, name: string, decision: "Approve" | "Discard"): Promise<Locator> {
  await walletRequest(page, name).getByRole("button", { name: decision }).click();
  const ask = page.getByRole("dialog", { name: `${decision} this wallet request?` });
  await ask.getByText(name, { exact: true }).waitFor();
  return ask;
}

/** The decision confirmed in the question askToDecide opened, once the screen says it was made. */
export async function confirmDecision(page: Page, ask: Locator, name: string, decision: "Approve" | "Discard"): Promise<void> {
  await ask.getByRole("button", { name: decision }).click();
  await toastText(page, `User ${name}'s account creation was approved or discarded`);
}

/** An administrator approves the member `name`'s wallet request, on Account requests. */
export async function approveWalletRequest(page: Page, name: string): Promise<void> {
  await confirmDecision(page, await askToDecide(page, name, "Approve"), name, "Approve");
}

// ---------------------------------------------------------------------------------------------
// Unlocking the wallet, paying from it

/** The dialog where the wallet asks to be unlocked (its PIN, else its password). */
export const authDialog = (page: Page): Locator => page.getByRole("dialog", { name: "Authentication" });

/** The PIN typed where the wallet asks for it: the dialog, to read what it says. */
export async function unlockWithPin(page: Page, pin: string): Promise<Locator> {
  const auth = authDialog(page);
  await auth.getByLabel("PIN code", { exact: true }).pressSequentially(pin);
  return auth;
}

/** The wallet password typed where the wallet asks for it, then Send: the dialog, to read what it says. */
export async function unlockWithPassword(page: Page, password: string, opts: Way = {}): Promise<Locator> {
  const auth = authDialog(page);
  await auth.getByLabel("Enter your wallet password").fill(password);
  await press(auth.getByRole("button", { name: "Send" }), opts.touch);
  return auth;
}

/** Cancel, where the wallet asks to be unlocked. */
export async function cancelUnlock(page: Page): Promise<void> {
  await authDialog(page).getByRole("button", { name: "Cancel" }).click();
}

/**
 * A payment from the member's ledger wallet (its "Wallet" card) up to the point where it is sent:
 * Pay, the member `name` found by `search` (by default Carol, who has only a ledger wallet, so it
 * is paid from the payer's ledger wallet), the amount, Send, Confirm and send. The wallet may then
 * ask to be unlocked.
 */
export async function payFromWallet(page: Page, amount: string, [search, name] = ["carol", "Carol Petit"]): Promise<void> {
  await walletAccount(page).first().click();
  const step2 = await startPayment(page, search, name, amount, undefined, { touch: false });
  await step2.getByRole("button", { name: "Send", exact: true }).click();
  await step2.getByRole("button", { name: "Confirm and send" }).click();
}

/** The payment's confirmation once it says `amount` DL were sent, closed: Ok, then Later to keeping the member as a favourite. */
export async function paidFromWallet(page: Page, amount: string): Promise<void> {
  const confirmation = page.getByRole("dialog", { name: "Payment confirmation" });
  await confirmation.getByText(`Sent ${amount} DL`).waitFor({ timeout: 30_000 });
  await confirmation.getByRole("button", { name: "Ok" }).click();
  const favorite = page.getByRole("dialog", { name: "Add as favorite" });
  await favorite.getByRole("button", { name: "Later" }).click();
  await favorite.waitFor({ state: "detached" });
}

// ---------------------------------------------------------------------------------------------
// This device's PIN (simplified authentication)

/** The switch of this device's PIN ("Simplified authentication for this device"), in Preferences or on the creation screen. */
export const pinSwitch = (page: Page): Locator => page.getByRole("switch", { name: "Simplified authentication for this device" });

/** Preferences' PIN editor: the PIN, its confirmation, Save. */
export const pinEditor = (page: Page) => ({
  pin: page.getByLabel("PIN code", { exact: true }),
  confirmation: page.getByLabel("PIN code confirmation"),
  save: page.getByRole("button", { name: "Save" }),
});

/** A new PIN typed twice in Preferences' editor and saved, once Preferences say so. */
export async function saveNewPin(page: Page, pin: string): Promise<void> {
  const editor = pinEditor(page);
  await editor.pin.pressSequentially(pin);
  await editor.confirmation.pressSequentially(pin);
  await editor.save.click();
  await toastText(page, "Edits were successfully saved");
}

// ---------------------------------------------------------------------------------------------
// Wallet files

/** Account actions, Export wallet: the warning it gives first. */
export async function askToExportWallet(page: Page, opts: Way = {}): Promise<Locator> {
  await press(page.getByRole("button", { name: "Account actions" }), opts.touch);
  await press(menuEntry(page, "Export wallet"), opts.touch);
  return page.getByRole("dialog", { name: "Export the wallet file?" });
}

/** Account actions, Export wallet, then Export past its warning: the file downloaded. */
export async function exportWallet(page: Page, opts: Way = {}): Promise<Download> {
  const warning = await askToExportWallet(page, opts);
  const [download] = await Promise.all([page.waitForEvent("download"), press(warning.getByRole("button", { name: "Export" }), opts.touch)]);
  return download;
}

/**
 * Chooses a wallet file as a member picking it would: from the wallet's menu, or, for a member
 * with no wallet yet, from the button that is then their first step. `fromMenu`: only from the
 * wallet's menu (Account actions), where a member with a wallet finds it.
 */
export async function importWalletFile(
  page: Page,
  name: string,
  content: string | Buffer,
  opts: Way & { fromMenu?: boolean; mimeType?: string } = {},
): Promise<void> {
  const { touch = false, mimeType = "application/octet-stream" } = opts;
  let upload: Locator;
  if (opts.fromMenu) {
    await press(page.getByRole("button", { name: "Account actions" }), touch);
    upload = menuEntry(page, "Upload wallet file...");
  } else {
    const button = page.getByRole("button", { name: "Upload wallet file..." });
    const menu = page.getByRole("button", { name: "Account actions" });
    await button.or(menu).first().waitFor();
    upload = (await button.count()) > 0 ? button : (await menu.click(), menuEntry(page, "Upload wallet file..."));
  }
  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), press(upload, touch)]);
  await chooser.setFiles({ name, mimeType, buffer: Buffer.from(content) });
}

// ---------------------------------------------------------------------------------------------
// Biometric sign-in and the devices that sign in without the password

/** The offer made after a password login on a device that can: "Enable biometric login". */
export const biometricOffer = (page: Page): Locator => page.getByRole("dialog", { name: "Enable biometric login" });

/** The offer, once it asks its question, answered. */
export async function answerBiometricOffer(page: Page, answer: "Yes" | "No" | "Ask me later"): Promise<void> {
  const offer = biometricOffer(page);
  await offer.getByText("Would you like to use your device's biometric (fingerprint, face recognition, ...) capability to login ?").waitFor();
  await offer.getByRole("button", { name: answer }).click();
}

/**
 * Whether to offer biometrics is decided by the offer's own code, which loads after every password
 * login on a device that can (its chunk, BiometricOfferPrompt) and decides as it starts: it opens
 * the offer when due, else only takes the request. Called before signing in, it resolves once that
 * code has arrived and run in the page, so that a check that the offer is NOT there comes after
 * the app's decision rather than after a guess of how long it takes.
 */
export function biometricOfferDecided(page: Page): Promise<void> {
  return page
    .waitForResponse((r) => /^\/assets\/BiometricOfferPrompt-[\w-]+\.js$/.test(new URL(r.url()).pathname))
    .then(async (chunk) => {
      // The same module the app imported (one per URL): resolves once it has run. A string, as
      // vitest would rewrite an import() written in a function passed to the page.
      await page.evaluate(`import(${JSON.stringify(chunk.url())}).then(() => true)`);
    });
}

/** The login page's "Sign in with biometrics". */
export const biometricSignInButton = (page: Page): Locator => page.getByRole("button", { name: "Sign in with biometrics" });

/** Preferences' switch of biometric sign-in on this device ("Use biometry for login"). */
const biometricSwitch = (page: Page): Locator => page.getByRole("switch", { name: "Use biometry for login" });

/**
 * The biometric switch, once Preferences show it (only where the device has an authenticator).
 * Once in CI, on a loaded machine, it was not shown within 30 s: past 15 s what the page held and
 * what the browser says of its authenticator are written down (test-results/noticed/) and the
 * wait goes on 30 s more; then it fails saying the same.
 */
export async function shownBiometricSwitch(page: Page): Promise<Locator> {
  const toggle = biometricSwitch(page);
  await waitNoting(toggle, { firstMs: 15_000, moreMs: 30_000, what: "Preferences had not shown the biometric switch", state: () => preferencesState(page) });
  return toggle;
}

/** Preferences' sections, and whether the browser says this device has an authenticator that verifies its user. */
const preferencesState = async (page: Page) => ({
  ...(await page.evaluate(async () => ({
    url: location.href,
    headings: [...document.querySelectorAll("h1, h2")].map((h) => h.textContent),
    authenticator: await Promise.race([
      PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable().then(String, (e: Error) => `refused: ${e.message}`),
      new Promise((r) => setTimeout(() => r("no answer within 5 s"), 5_000)),
    ]),
  }))),
  console: consoleSaid(page),
});

/** Preferences' list of the devices that sign in without the password. */
export const devicesList = (page: Page): Locator => page.getByRole("region", { name: "Devices that sign in without your password" });

/** The account password typed where an old session is asked to confirm it, then Confirm: the dialog, to read what it says. */
export async function confirmAccountPassword(page: Page, password: string): Promise<Locator> {
  const confirm = page.getByRole("dialog", { name: "Confirm your password" });
  await confirm.getByLabel("Account password").fill(password);
  await confirm.getByRole("button", { name: "Confirm" }).click();
  return confirm;
}

/** Remove on the device `device` ("Firefox · Windows"), its question read and answered Remove, once Preferences say it is done. */
export async function removeDevice(page: Page, device: string): Promise<void> {
  await devicesList(page)
    .getByRole("button", { name: `Remove ${device}` })
    .click();
  const ask = page.getByRole("dialog", { name: "Remove this sign-in?" });
  await ask.getByText(`${device} will no longer sign in to your account.`, { exact: false }).waitFor();
  await ask.getByRole("button", { name: "Remove" }).click();
  await toastText(page, `${device} can no longer sign in to your account.`);
}
