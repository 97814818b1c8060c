import { describe, expect, it } from "vitest";
import { expectTitle, newPage, toastText } from "./support/browser";
import { useSuite } from "./support/suite";
import { menuEntry, openMenu } from "./pages/app";
import {
  emailField,
  fillSignIn,
  openAbout,
  openPreferences,
  openSignIn,
  passwordField,
  pressSignIn,
  signIn,
  signInButton,
  signInToDashboard,
  signOut,
} from "./pages/members";

const suite = useSuite();

describe("signing in and out", () => {
  it("shows an anonymous visitor the login page without asking the server for a session, and logs no error", async () => {
    const { page, context, errors } = await newPage(suite.browser);
    const asked: string[] = [];
    const consoleErrors: string[] = [];
    page.on("request", (r) => r.url().includes("/api/") && asked.push(new URL(r.url()).pathname));
    page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
    await openSignIn(page, suite.server.url);
    await page.waitForLoadState("networkidle");
    expect(asked.filter((p) => p === "/api/me")).toEqual([]);
    expect([...errors, ...consoleErrors]).toEqual([]);
    await context.close();
  });

  it("sends an anonymous visitor of /dashboard to the map screen", async () => {
    const { page, context, errors } = await newPage(suite.browser);
    await page.goto(`${suite.server.url}/dashboard`);
    await page.waitForURL(`${suite.server.url}/carto`);
    await expectTitle(page, "Demo Lokal - Map");
    // The association's own map and directory, open to visitors.
    await page.getByRole("heading", { name: "Map", exact: true }).waitFor();
    // Unknown paths fall to the map too.
    await page.goto(`${suite.server.url}/no/such/page`);
    await page.waitForURL(`${suite.server.url}/carto`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("signs alice in with a sloppily typed e-mail, keeps her signed in over a reload, and signs her out", async () => {
    const { page, context, errors } = await newPage(suite.browser);
    await signInToDashboard(page, suite.server.url, "  Alice@Example.COM ");
    await expectTitle(page, "Demo Lokal - Dashboard");
    const userMenu = page.getByRole("button", { name: "Alice Martin" });
    await userMenu.waitFor();

    await page.reload();
    await userMenu.waitFor();
    expect(page.url()).toBe(`${suite.server.url}/dashboard`);

    // A signed-in member opening the login page goes to the dashboard.
    await page.goto(`${suite.server.url}/`);
    await page.waitForURL(`${suite.server.url}/dashboard`);

    await signOut(page, "Alice Martin");
    await signInButton(page).waitFor();
    // The e-mail is remembered, normalised.
    await expect(emailField(page).inputValue()).resolves.toBe("alice@example.com");
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
    const pw = passwordField(page);
    await pw.fill("Demo1234!");
    await expect(pw.getAttribute("type")).resolves.toBe("password");
    await page.getByRole("button", { name: "Show password" }).click();
    await expect(pw.getAttribute("type")).resolves.toBe("text");
    await emailField(page).fill("bob@example.com");
    await pw.press("Enter");
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await context.close();
  });

  it("shows the navigation each role is entitled to, and the About dialog", async () => {
    const { page, context } = await newPage(suite.browser);
    await signIn(page, suite.server.url, "accounts@example.com");
    // No account of his own: he lands on his work, the requests to approve, not on an empty dashboard.
    await page.waitForURL(`${suite.server.url}/admin/pending-accounts`);
    await openMenu(page, "Axel Accounts");
    await menuEntry(page, "Account requests").waitFor();
    const menu = page.locator("#user-menu");
    await expect(menu.getByRole("menuitem", { name: "Credit requests" }).count()).resolves.toBe(0);
    await expect(menu.getByRole("menuitem", { name: "Create my wallet" }).count()).resolves.toBe(1);
    await menuEntry(page, "Account requests").click();
    await page.waitForURL(`${suite.server.url}/admin/pending-accounts`);
    await expectTitle(page, "Demo Lokal - Approval of account creation");

    const dialog = await openAbout(page, "Axel Accounts");
    await dialog.getByText("Mutua version 1.1.1").waitFor();
    // Back closes the open dialog first, and the page stays where it is.
    await page.goBack();
    await dialog.waitFor({ state: "hidden" });
    expect(new URL(page.url()).pathname).toBe("/admin/pending-accounts");
    await context.close();

    const admin = await newPage(suite.browser);
    await signIn(admin.page, suite.server.url, "admin@example.com");
    await openMenu(admin.page, "Ada Admin");
    await menuEntry(admin.page, "Credit requests").waitFor();
    await menuEntry(admin.page, "Account requests").waitFor();
    await admin.context.close();

    const member = await newPage(suite.browser);
    await signIn(member.page, suite.server.url, "carol@example.com");
    await openMenu(member.page, "Carol Petit");
    await menuEntry(member.page, "Sign out").waitFor();
    await expect(menuEntry(member.page, "Account requests").count()).resolves.toBe(0);
    await expect(menuEntry(member.page, "Credit requests").count()).resolves.toBe(0);
    await member.context.close();
  });

  it("logs a member out when the server ends the session", async () => {
    const { page, context } = await newPage(suite.browser);
    await signInToDashboard(page, suite.server.url, "bob@example.com");
    await page.waitForLoadState("networkidle");
    // Preferences may reload the accounts (security settings are per wallet): let that finish first.
    await openPreferences(page, "Bob Durand");
    await page.waitForLoadState("networkidle");
    // The session ends behind the app's back (as a sign-out on another device would).
    await context.clearCookies();
    await page.getByRole("link", { name: "Dashboard" }).click();
    // The dashboard's next private call answers 401: the app signs out and goes to the login page.
    await page.waitForURL(`${suite.server.url}/`);
    await signInButton(page).waitFor();
    await expect(page.getByRole("button", { name: "Bob Durand" }).count()).resolves.toBe(0);
    await context.close();
  });

  it("says 'Request failed to remote server.' when the server is down", async () => {
    const { page, context } = await newPage(suite.browser);
    await page.goto(`${suite.server.url}/`);
    await fillSignIn(page, { email: "alice@example.com", password: "Demo1234!" });
    await suite.server.stop();
    await pressSignIn(page);
    // The toast library comes from the service worker's cache when it finished installing before the
    // server stopped, and otherwise cannot be fetched; then the app's own live region says it, beside
    // its Close button (so the text is part of a longer one). Either way the member reads the message.
    await page.getByText("Request failed to remote server.").first().waitFor();
    await context.close();
  });
});
