import { describe, expect, it } from "vitest";
import { toastText } from "./support/browser";
import { signedIn, useSuite } from "./support/suite";

const suite = useSuite();

describe("opening wallets and approving them", () => {
  it("carol opens a custodial wallet; accounts@ approves it; it moves from her pending accounts to her accounts", async () => {
    const carol = await signedIn(suite, "carol@example.com");
    await carol.page.getByRole("button", { name: "Carol Petit" }).click();
    await carol.page.locator("#user-menu").getByRole("menuitem", { name: "Create my wallet" }).click();
    await carol.page.waitForURL(`${suite.server.url}/create-account`);
    await carol.page.getByRole("button", { name: "Create my wallet" }).click();
    await carol.page.waitForURL(`${suite.server.url}/dashboard`);
    const pending = carol.page.locator(".pending-accounts");
    await pending.getByText("Demo Lokal", { exact: true }).waitFor();
    expect(await carol.page.locator(".accounts button.account").filter({ hasText: "Main account" }).count()).toBe(0);

    const admin = await signedIn(suite, "accounts@example.com");
    await admin.page.getByRole("button", { name: "Axel Accounts" }).click();
    await admin.page.getByRole("menuitem", { name: "Account requests" }).click();
    const row = admin.page.locator("tr").filter({ hasText: "Carol Petit" });
    // The row shows who asked, with their e-mail; Approve asks first, naming the member and the wallet.
    await row.getByText("carol@example.com").waitFor();
    await row.getByRole("button", { name: "Approve" }).click();
    const ask = admin.page.getByRole("dialog", { name: "Approve this wallet request?" });
    await ask.getByText("Carol Petit", { exact: true }).waitFor();
    await ask.getByText("carol@example.com").waitFor();
    await ask.getByRole("button", { name: "Approve" }).click();
    await toastText(admin.page, "User Carol Petit's account creation was approved or discarded");
    await toastText(admin.page, "Approved: Carol Petit, Demo Lokal");
    await row.waitFor({ state: "detached" });

    await carol.page.getByRole("button", { name: "Refresh" }).click();
    await carol.page.locator(".accounts button.account").filter({ hasText: "Main account" }).getByText("0.00").waitFor();
    await pending.waitFor({ state: "detached" });
    await carol.context.close();

    // Discard: Dan's wallet request (seeded) goes, and he may ask again.
    const danRow = admin.page.locator("tr").filter({ hasText: "Dan Pending" });
    await danRow.getByRole("button", { name: "Discard" }).click();
    const discard = admin.page.getByRole("dialog", { name: "Discard this wallet request?" });
    await discard.getByText("Dan Pending", { exact: true }).waitFor();
    // The destructive choice is the red one.
    expect(await discard.getByRole("button", { name: "Discard" }).getAttribute("class")).toContain("danger");
    await discard.getByRole("button", { name: "Discard" }).click();
    await toastText(admin.page, "User Dan Pending's account creation was approved or discarded");
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
    await page.goto(`${suite.server.url}/create-account`);
    const create = page.getByRole("button", { name: "Create my wallet" });
    await page.getByText("Please note that this password can not be retrieved, so be sure to keep it in a safe and reachable place.").waitFor();
    await page.getByLabel("Password", { exact: true }).fill("short");
    await page.getByText("Password must be at least 8 characters long").waitFor();
    await page.getByLabel("Password", { exact: true }).fill("longenough");
    await page.getByText("Password should use at least one lowercase character, uppercase character, digit, symbol").waitFor();
    await page.getByLabel("Password", { exact: true }).fill("Wallet-Pass-9");
    await page.getByLabel("Password confirmation").fill("Wallet-Pass-8");
    await page.getByText("Passwords do not match").waitFor();
    expect(await create.isDisabled()).toBe(true);
    const sent: string[] = [];
    page.on("request", (r) => r.url().endsWith("/api/wallets") && sent.push(r.postData() ?? ""));
    await page.getByLabel("Password confirmation").fill("Wallet-Pass-9");
    await page.getByLabel("Password confirmation").press("Enter");
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await page.locator(".pending-accounts").getByText("Wallet").waitFor();
    expect(sent).toHaveLength(1);
    const body = JSON.parse(sent[0]!);
    expect(body.keystore.crypto.kdf).toBe("scrypt");
    expect(sent[0]).not.toContain("Wallet-Pass-9");
    await context.close();
  });

  it("dan, with no wallet, picks a backend; a failed creation says so; one made meanwhile elsewhere is 'Wallet already created.'; then nothing is left to create", async () => {
    // Runs after the first test discarded Dan's seeded request.
    const { page, context, errors } = await signedIn(suite, "dan@example.com");
    await page.goto(`${suite.server.url}/create-account`);
    const backends = page.getByRole("radiogroup", { name: "Backend" }).getByRole("radio");
    await backends.first().waitFor();
    expect(await backends.count()).toBe(2);
    expect(await backends.first().getAttribute("aria-checked")).toBe("true");
    await page.getByRole("radio", { name: "Demo Lokal", exact: true }).click();
    expect(await page.getByRole("radio", { name: "Demo Lokal", exact: true }).getAttribute("aria-checked")).toBe("true");
    expect(await page.getByLabel("Password", { exact: true }).count()).toBe(0);

    await page.route("**/api/wallets", (r) => r.fulfill({ status: 500, body: "" }));
    await page.getByRole("button", { name: "Create my wallet" }).click();
    await toastText(page, "Wallet creation unexpectedly failed. Please try again or contact your administrator.");
    expect(page.url()).toBe(`${suite.server.url}/create-account`);
    await page.unroute("**/api/wallets");

    // The same wallet created from another tab in the meantime: a warning, and on to the dashboard.
    const other = await context.newPage();
    await other.goto(`${suite.server.url}/create-account`);
    await other.getByRole("radio", { name: "Demo Lokal", exact: true }).click();
    await other.getByRole("button", { name: "Create my wallet" }).click();
    await other.waitForURL(`${suite.server.url}/dashboard`);
    await page.getByRole("button", { name: "Create my wallet" }).click();
    await toastText(page, "Wallet already created.");
    await page.waitForURL(`${suite.server.url}/dashboard`);

    await page.goto(`${suite.server.url}/create-account`);
    await page.getByLabel("Password", { exact: true }).fill("Dan-Wallet-4");
    await page.getByLabel("Password confirmation").fill("Dan-Wallet-4");
    await page.getByRole("button", { name: "Create my wallet" }).click();
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await page.locator(".pending-accounts").getByText("Wallet").waitFor();
    // No backend without a wallet: the screen sends Dan away.
    await page.goto(`${suite.server.url}/create-account`);
    await page.waitForURL(`${suite.server.url}/dashboard`);
    expect(errors).toEqual([]);
    await context.close();
  });
});
