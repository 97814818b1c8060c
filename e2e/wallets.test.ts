import { describe, expect, it } from "vitest";
import { toastText } from "./support/browser";
import { signedIn, useSuite } from "./support/suite";
import {
  askToDecide,
  confirmDecision,
  createWallet,
  openWalletCreation,
  openWalletCreationFromMenu,
  openWalletRequests,
  pendingWallets,
  walletAccount,
  walletCreationForm,
  walletRequest,
} from "./pages/wallets";

const suite = useSuite();

describe("opening wallets and approving them", () => {
  it("carol opens a custodial wallet; accounts@ approves it; it moves from her pending accounts to her accounts", async () => {
    const carol = await signedIn(suite, "carol@example.com");
    await openWalletCreationFromMenu(carol.page, "Carol Petit");
    await createWallet(carol.page);
    await carol.page.waitForURL(`${suite.server.url}/dashboard`);
    const pending = pendingWallets(carol.page);
    await pending.getByText("Demo Lokal", { exact: true }).waitFor();
    expect(await walletAccount(carol.page, "Main account").count()).toBe(0);

    const admin = await signedIn(suite, "accounts@example.com");
    await openWalletRequests(admin.page, "Axel Accounts");
    const row = walletRequest(admin.page, "Carol Petit");
    // The row shows who asked, with their e-mail; Approve asks first, naming the member and the wallet.
    await row.getByText("carol@example.com").waitFor();
    const ask = await askToDecide(admin.page, "Carol Petit", "Approve");
    await ask.getByText("carol@example.com").waitFor();
    await confirmDecision(admin.page, ask, "Carol Petit", "Approve");
    await toastText(admin.page, "Approved: Carol Petit, Demo Lokal");
    await row.waitFor({ state: "detached" });

    await carol.page.getByRole("button", { name: "Refresh" }).click();
    await walletAccount(carol.page, "Main account").getByText("0.00").waitFor();
    await pending.waitFor({ state: "detached" });
    await carol.context.close();

    // Discard: Dan's wallet request (seeded) goes, and he may ask again.
    const danRow = walletRequest(admin.page, "Dan Pending");
    const discard = await askToDecide(admin.page, "Dan Pending", "Discard");
    // The destructive choice is the red one.
    expect(await discard.getByRole("button", { name: "Discard" }).getAttribute("class")).toContain("danger");
    await confirmDecision(admin.page, discard, "Dan Pending", "Discard");
    await toastText(admin.page, /Discarded: Dan Pending, Demo Lokal/);
    await danRow.waitFor({ state: "detached" });
    await admin.context.close();

    const dan = await signedIn(suite, "dan@example.com");
    await dan.page.getByText("You don't have any wallet yet.").waitFor();
    await dan.page.locator(".accounts").getByRole("link", { name: "Create my wallet" }).waitFor();
    await dan.context.close();
  });

  it("bob opens a ledger wallet: the wallet password is checked on the device and only the encrypted file leaves it", async () => {
    const { page, context } = await signedIn(suite, "bob@example.com");
    await openWalletCreation(page, suite.server.url);
    const form = walletCreationForm(page);
    await page.getByText("Please note that this password can not be retrieved, so be sure to keep it in a safe and reachable place.").waitFor();
    await form.password.fill("short");
    await page.getByText("Password must be at least 8 characters long").waitFor();
    await form.password.fill("longenough");
    await page.getByText("Password should use at least one lowercase character, uppercase character, digit, symbol").waitFor();
    await form.password.fill("Wallet-Pass-9");
    await form.confirmation.fill("Wallet-Pass-8");
    await page.getByText("Passwords do not match").waitFor();
    expect(await form.create.isDisabled()).toBe(true);
    const sent: string[] = [];
    page.on("request", (r) => r.url().endsWith("/api/wallets") && sent.push(r.postData() ?? ""));
    await form.confirmation.fill("Wallet-Pass-9");
    await form.confirmation.press("Enter");
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await pendingWallets(page).getByText("Wallet").waitFor();
    expect(sent).toHaveLength(1);
    const body = JSON.parse(sent[0]!);
    expect(body.keystore.crypto.kdf).toBe("scrypt");
    expect(sent[0]).not.toContain("Wallet-Pass-9");
    await context.close();
  });

  it("dan, with no wallet, picks a backend; a failed creation says so; one made meanwhile elsewhere is 'Wallet already created.'; then nothing is left to create", async () => {
    // Runs after the first test discarded Dan's seeded request.
    const { page, context, errors } = await signedIn(suite, "dan@example.com");
    await openWalletCreation(page, suite.server.url);
    const form = walletCreationForm(page);
    await form.backends.first().waitFor();
    expect(await form.backends.count()).toBe(2);
    expect(await form.backends.first().getAttribute("aria-checked")).toBe("true");
    await form.backend("Demo Lokal").click();
    expect(await form.backend("Demo Lokal").getAttribute("aria-checked")).toBe("true");
    expect(await form.password.count()).toBe(0);

    await page.route("**/api/wallets", (r) => r.fulfill({ status: 500, body: "" }));
    await createWallet(page);
    await toastText(page, "Wallet creation unexpectedly failed. Please try again or contact your administrator.");
    expect(page.url()).toBe(`${suite.server.url}/create-account`);
    await page.unroute("**/api/wallets");

    // The same wallet created from another tab in the meantime: a warning, and on to the dashboard.
    const other = await context.newPage();
    await openWalletCreation(other, suite.server.url);
    await createWallet(other, { backend: "Demo Lokal" });
    await other.waitForURL(`${suite.server.url}/dashboard`);
    await createWallet(page);
    await toastText(page, "Wallet already created.");
    await page.waitForURL(`${suite.server.url}/dashboard`);

    await openWalletCreation(page, suite.server.url);
    await createWallet(page, { password: "Dan-Wallet-4" });
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await pendingWallets(page).getByText("Wallet").waitFor();
    // No backend without a wallet: the screen sends Dan away.
    await openWalletCreation(page, suite.server.url);
    await page.waitForURL(`${suite.server.url}/dashboard`);
    expect(errors).toEqual([]);
    await context.close();
  });
});
