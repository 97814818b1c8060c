import { describe, expect, it } from "vitest";
import { expectTitle, newPage, signIn, toastText } from "./support/browser";
import { useSuite } from "./support/suite";

const suite = useSuite();

describe("signing in and out", () => {
  it("shows an anonymous visitor the login page without asking the server for a session, and logs no error", async () => {
    const { page, context, errors } = await newPage(suite.browser);
    const asked: string[] = [];
    const consoleErrors: string[] = [];
    page.on("request", (r) => r.url().includes("/api/") && asked.push(new URL(r.url()).pathname));
    page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
    await page.goto(`${suite.server.url}/`);
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    await page.waitForLoadState("networkidle");
    expect(asked.filter((p) => p === "/api/me")).toEqual([]);
    expect([...errors, ...consoleErrors]).toEqual([]);
    await context.close();
  });

  it("sends an anonymous visitor of /dashboard to the map screen", async () => {
    const { page, context, errors } = await newPage(suite.browser);
    await page.goto(`${suite.server.url}/dashboard`);
    await page.waitForURL(`${suite.server.url}/carto`);
    await expectTitle(page, "Mutua - Map");
    await page.getByText("No map is available for this association.").waitFor();
    // Unknown paths fall to the map too.
    await page.goto(`${suite.server.url}/no/such/page`);
    await page.waitForURL(`${suite.server.url}/carto`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("signs alice in with a sloppily typed e-mail, keeps her signed in over a reload, and signs her out", async () => {
    const { page, context, errors } = await newPage(suite.browser);
    await signIn(page, suite.server.url, "  Alice@Example.COM ", "Demo1234!");
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await expectTitle(page, "Mutua - Dashboard");
    const userMenu = page.getByRole("button", { name: "Alice Martin" });
    await userMenu.waitFor();

    await page.reload();
    await userMenu.waitFor();
    expect(page.url()).toBe(`${suite.server.url}/dashboard`);

    // A signed-in member opening the login page goes to the dashboard.
    await page.goto(`${suite.server.url}/`);
    await page.waitForURL(`${suite.server.url}/dashboard`);

    await userMenu.click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.waitForURL(`${suite.server.url}/`);
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    // The e-mail is remembered, normalised.
    await expect(page.getByLabel("Email").inputValue()).resolves.toBe("alice@example.com");
    // The session is gone on the server too: the dashboard is closed again.
    await page.goto(`${suite.server.url}/dashboard`);
    await page.waitForURL(`${suite.server.url}/carto`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("says 'Invalid credentials' for a wrong password", async () => {
    const { page, context } = await newPage(suite.browser);
    await signIn(page, suite.server.url, "alice@example.com", "not-her-password");
    await toastText(page, "Invalid credentials");
    expect(page.url()).toBe(`${suite.server.url}/`);
    await context.close();
  });

  it("shows the password on demand and submits with Enter", async () => {
    const { page, context } = await newPage(suite.browser);
    await page.goto(`${suite.server.url}/`);
    const pw = page.getByLabel("Password", { exact: true });
    await pw.fill("Demo1234!");
    await expect(pw.getAttribute("type")).resolves.toBe("password");
    await page.getByRole("button", { name: "Show password" }).click();
    await expect(pw.getAttribute("type")).resolves.toBe("text");
    await page.getByLabel("Email").fill("bob@example.com");
    await pw.press("Enter");
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await context.close();
  });

  it("shows the navigation each role is entitled to, and the About dialog", async () => {
    const { page, context } = await newPage(suite.browser);
    await signIn(page, suite.server.url, "accounts@example.com", "Demo1234!");
    // No account of his own: he lands on his work, the requests to approve, not on an empty dashboard.
    await page.waitForURL(`${suite.server.url}/admin/pending-accounts`);
    await page.getByRole("button", { name: "Axel Accounts" }).click();
    await page.getByRole("menuitem", { name: "Account requests" }).waitFor();
    const menu = page.locator("#user-menu");
    await expect(menu.getByRole("menuitem", { name: "Credit requests" }).count()).resolves.toBe(0);
    await expect(menu.getByRole("menuitem", { name: "Create my wallet" }).count()).resolves.toBe(1);
    await page.getByRole("menuitem", { name: "Account requests" }).click();
    await page.waitForURL(`${suite.server.url}/admin/pending-accounts`);
    await expectTitle(page, "Mutua - Approval of account creation");

    await page.getByRole("button", { name: "Axel Accounts" }).click();
    await page.getByRole("menuitem", { name: "About Mutua" }).click();
    const dialog = page.getByRole("dialog", { name: "About Mutua" });
    await dialog.getByText("Mutua version 1.1.1").waitFor();
    // Back closes the open dialog first, and the page stays where it is.
    await page.goBack();
    await dialog.waitFor({ state: "hidden" });
    expect(new URL(page.url()).pathname).toBe("/admin/pending-accounts");
    await context.close();

    const admin = await newPage(suite.browser);
    await signIn(admin.page, suite.server.url, "admin@example.com", "Demo1234!");
    await admin.page.getByRole("button", { name: "Ada Admin" }).click();
    await admin.page.getByRole("menuitem", { name: "Credit requests" }).waitFor();
    await admin.page.getByRole("menuitem", { name: "Account requests" }).waitFor();
    await admin.context.close();

    const member = await newPage(suite.browser);
    await signIn(member.page, suite.server.url, "carol@example.com", "Demo1234!");
    await member.page.getByRole("button", { name: "Carol Petit" }).click();
    await member.page.getByRole("menuitem", { name: "Sign out" }).waitFor();
    await expect(member.page.getByRole("menuitem", { name: "Account requests" }).count()).resolves.toBe(0);
    await expect(member.page.getByRole("menuitem", { name: "Credit requests" }).count()).resolves.toBe(0);
    await member.context.close();
  });

  it("logs a member out when the server ends the session", async () => {
    const { page, context } = await newPage(suite.browser);
    await signIn(page, suite.server.url, "bob@example.com", "Demo1234!");
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await page.waitForLoadState("networkidle");
    await page.getByRole("button", { name: "Bob Durand" }).click();
    // Preferences may reload the accounts (security settings are per wallet): let that finish first.
    await page.getByRole("menuitem", { name: "Settings" }).click();
    await page.waitForURL(`${suite.server.url}/preferences`);
    await page.waitForLoadState("networkidle");
    // The session ends behind the app's back (as a sign-out on another device would).
    await context.clearCookies();
    await page.getByRole("link", { name: "Dashboard" }).click();
    // The dashboard's next private call answers 401: the app signs out and goes to the login page.
    await page.waitForURL(`${suite.server.url}/`);
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    await expect(page.getByRole("button", { name: "Bob Durand" }).count()).resolves.toBe(0);
    await context.close();
  });

  it("says 'Request failed to remote server.' when the server is down", async () => {
    const { page, context } = await newPage(suite.browser);
    await page.goto(`${suite.server.url}/`);
    await page.getByLabel("Email").fill("alice@example.com");
    await page.getByLabel("Password", { exact: true }).fill("Demo1234!");
    await suite.server.stop();
    await page.getByRole("button", { name: "Sign in" }).click();
    // The toast library comes from the service worker's cache when it finished installing before the
    // server stopped, and otherwise cannot be fetched; then the app's own live region says it, beside
    // its Close button (so the text is part of a longer one). Either way the member reads the message.
    await page.getByText("Request failed to remote server.").first().waitFor();
    await context.close();
  });
});
