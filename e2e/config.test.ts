import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectTitle, newPage } from "./support/browser";
import { useSuite } from "./support/suite";
import { menuEntry, openMenu } from "./pages/app";
import { signInToDashboard } from "./pages/members";

/** An association's own config.json (docs/spec.md §3) drives the app: names, links, map, theme, hidden entries. */
const configFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "mutua-config-")), "config.json");
const ASSOCIATION_CONFIG = {
  appName: "Lokal",
  lokapiHost: "odoo.example.org",
  mapUrl: "/logo.svg?map",
  helpUrl: "https://help.example.org/",
  cguUrl: "https://example.org/terms",
  signUpUrl: "/logo.svg?join",
  hideResetPassword: true,
  theme: { "color-2": "#aa0000", "default-color": "$color-2" },
  // The second rule weighs what the map screen's own stylesheet does, which loads after it.
  css: "body { letter-spacing: 0.01em; } .carto-frame { border: 3px solid rgb(1, 2, 3); }",
  locales: { availableLanguages: { "en-US": { label: "English" } }, defaultLanguage: "en-US" },
};

beforeAll(() => {
  fs.writeFileSync(configFile, JSON.stringify(ASSOCIATION_CONFIG));
});
afterAll(() => {
  fs.rmSync(path.dirname(configFile), { recursive: true, force: true });
});
const suite = useSuite(() => ({ APP_CONFIG: configFile }));

describe("association config", () => {
  it("serves every key, pointing lokapiHost at this server", async () => {
    const config = await (await fetch(`${suite.server.url}/config.json`)).json();
    expect(config.lokapiHost).toBe(suite.server.url);
    // The file's appName names the app only before setup: then it bears the association's name.
    expect(config.appName).toBe("Demo Lokal");
    expect(config.accountsRefreshInterval).toBe(90);
    expect(config.localAuthPolicy).toEqual(["Retention", { time: 900, subConfig: ["Pin", {}] }]);
  });

  it("shows the map, the links and the theme it configures, and hides what it hides", async () => {
    const { page, context, errors } = await newPage(suite.browser);
    await page.goto(`${suite.server.url}/dashboard`);
    await page.waitForURL(`${suite.server.url}/carto`);
    await expectTitle(page, "Demo Lokal - Map");
    await expect(page.locator("iframe[title=Map]").getAttribute("src")).resolves.toBe("/logo.svg?map");
    await expect(page.getByRole("link", { name: "Help" }).getAttribute("href")).resolves.toBe("https://help.example.org/");
    await expect(page.getByRole("link", { name: "Terms of Service" }).getAttribute("href")).resolves.toBe("https://example.org/terms");
    await page.getByRole("link", { name: "Map" }).waitFor();
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--color-2").trim())).toBe("#aa0000");
    expect(await page.evaluate(() => getComputedStyle(document.querySelector(".navbar")!).getPropertyValue("--default-color").trim())).toBe("#aa0000");
    expect(await page.evaluate(() => getComputedStyle(document.body).letterSpacing)).not.toBe("normal");
    expect(await page.evaluate(() => getComputedStyle(document.querySelector(".carto-frame")!).borderTopWidth)).toBe("3px");

    await page.getByRole("link", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    await expect(page.getByRole("link", { name: "Forgot password ?" }).count()).resolves.toBe(0);
    await expect(page.getByRole("link", { name: "Not a member yet ?" }).getAttribute("href")).resolves.toBe("/logo.svg?join");

    // With a single language and no wallet to unlock (Bob's is custodial) there is nothing to set, but
    // Settings still lists the devices that sign in without the password: none, and it says so.
    await signInToDashboard(page, suite.server.url, "bob@example.com");
    await openMenu(page, "Bob Durand");
    await menuEntry(page, "Sign out").waitFor();
    await expect(page.locator("#user-menu").getByRole("menuitem", { name: "Help" }).count()).resolves.toBe(1);
    await menuEntry(page, "Settings").click();
    await page.getByText("None: only your password signs in to your account.").waitFor();
    await expect(page.getByRole("heading", { name: "Language settings" }).count()).resolves.toBe(0);
    await expect(page.getByRole("heading", { name: "Security settings" }).count()).resolves.toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("opens the association's own sign-up page instead of /signup", async () => {
    const { page, context } = await newPage(suite.browser);
    await page.goto(`${suite.server.url}/signup`);
    await page.waitForURL(`${suite.server.url}/logo.svg?join`);
    await context.close();
  });

  it("runs under a Content-Security-Policy that refuses scripts injected into the page", async () => {
    const { page, context, errors } = await newPage(suite.browser);
    const res = await page.goto(`${suite.server.url}/carto`);
    expect(res!.headers()["content-security-policy"]).toContain("script-src 'self' 'wasm-unsafe-eval'");
    await page.locator("iframe").waitFor();
    expect(errors).toEqual([]);
    await expect(page.addScriptTag({ content: "window.injected = true" })).rejects.toThrow();
    expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();
    expect(errors.some((e) => /Content Security Policy/.test(e))).toBe(true);
    await context.close();
  });
});
