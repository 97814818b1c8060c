import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { newPage } from "./support/browser";
import { useSuite } from "./support/suite";
import { english, french, type Words } from "./pages/app";
import { DEMO_PASSWORD, signIn, signInToDashboard } from "./pages/members";
import { openAccountRequests } from "./pages/admin";
import {
  addCategory,
  businessFigures,
  approveBusinessProfile,
  askForBusinessProfile,
  filterByCategory,
  listedNames,
  loadedTiles,
  markers,
  onlyOpenNow,
  openBusiness,
  payBusiness,
  searchDirectory,
  sendToBusiness,
  setDirectorySettings,
  showsCount,
  startTileServer,
} from "./pages/directory";

/**
 * The association's map and directory, as visitors, members, account administrators and the
 * association's own website meet it, on a phone (360×740, by touch) and a wide screen (1280×800),
 * in English and in French. The tiles come from a server of the test's own on loopback, and "open
 * now" is read at a fixed instant: Monday 7 December 2026, 10:00 in Paris.
 */

let tiles: Awaited<ReturnType<typeof startTileServer>>;
beforeAll(async () => {
  tiles = await startTileServer();
});
afterAll(async () => {
  await tiles?.close();
});
const suite = useSuite();
beforeAll(async () => {
  await setDirectorySettings(suite.server.url, { tileUrl: tiles.template, tileAttribution: "Test tiles" });
});

const MONDAY_10_PARIS = new Date("2026-12-07T09:00:00Z");
const SCREENS = path.resolve(import.meta.dirname, "../test-results/screens");
const shot = async (page: Page, name: string) => {
  fs.mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS, `${name}.png`) });
};

const WAYS = [
  { size: "360x740", phone: true, lang: "en", t: english },
  { size: "1280x800", phone: false, lang: "fr", t: french },
  { size: "1280x800", phone: false, lang: "en", t: english },
] as const satisfies readonly { size: string; phone: boolean; lang: string; t: Words }[];

/**
 * A member asking for a business of their own: on a phone in English and on a wide screen in
 * French, which between them walk both sizes and both languages (the screens tour looks at every
 * screen in all four): the whole flow four times cost CI half a minute more.
 */
const MEMBERS = [
  { way: WAYS[0], email: "carol@example.com", business: "Atelier de Carol" },
  { way: WAYS[1], email: "alice@example.com", business: "Jardin d'Alice" },
];

const pageFor = (way: (typeof WAYS)[number]) =>
  newPage(suite.browser, { locale: way.lang === "fr" ? "fr-FR" : "en-US", ...(way.phone ? { phone: true } : { viewport: { width: 1280, height: 800 } }) });

/** A visitor's whole walk on the two ways the members' flows take too; the screens tour sees the map in all four. */
describe.each([WAYS[0], WAYS[1]])("a visitor at $size in $lang", (way) => {
  it("sees the demo's shops on the map and in the list, filters by a category and open now, opens a shop, signs in and pays it from its page", async () => {
    const { t, phone } = way;
    const { page, context, errors } = await pageFor(way);
    await page.clock.setFixedTime(MONDAY_10_PARIS);
    // A visitor opening the app's address of a member's screen lands on the map.
    await page.goto(`${suite.server.url}/dashboard`);
    await page.waitForURL(`${suite.server.url}/carto`);
    await page.getByRole("heading", { level: 1, name: t("Map") }).waitFor();
    await showsCount(page, 12, t);
    expect(await listedNames(page, t)).toContain("Le Fournil du Lac");
    await markers(page).first().waitFor();
    await loadedTiles(page).first().waitFor();
    expect(tiles.asked()).toBeGreaterThan(0);
    await page.getByRole("link", { name: t("Sign up") }).waitFor();
    // Nobody who is not a business is in it.
    await searchDirectory(page, "Alice", t);
    await showsCount(page, 0, t);
    await searchDirectory(page, "", t);
    await shot(page, `directory-${way.size}-${way.lang}`);

    await filterByCategory(page, "Services", t);
    await showsCount(page, 3, t);
    await onlyOpenNow(page, { phone, t });
    await showsCount(page, 2, t);
    expect((await listedNames(page, t)).sort()).toEqual(["Pressing Vert", "Retouches Alma"]);
    await shot(page, `directory-filtered-${way.size}-${way.lang}`);

    await openBusiness(page, "Pressing Vert", { phone, t });
    await page.getByText(t("Open now"), { exact: true }).waitFor();
    await page.getByRole("heading", { name: t("Opening hours") }).waitFor();
    await shot(page, `business-${way.size}-${way.lang}`);
    const step2 = await payBusiness(page, "1.50", { email: "bob@example.com", password: DEMO_PASSWORD }, { phone, t });
    await step2.getByText("Omar Vapeur").first().waitFor();
    await shot(page, `business-pay-${way.size}-${way.lang}`);
    await sendToBusiness(page, step2, t("Sent {amount} {currency}", { amount: way.lang === "fr" ? "1,50" : "1.50", currency: "DL" }), { phone, t });
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe.each(MEMBERS)("a member at $way.size in $way.lang", (member) => {
  it("asks for a business profile and places its pin; an account administrator approves it; it is on the map", async () => {
    const { way } = member;
    const { t, phone } = way;
    const { page, context, errors } = await pageFor(way);
    await signInToDashboard(page, suite.server.url, member.email, DEMO_PASSWORD, { email: t("Email"), password: t("Password"), signIn: t("Sign in") });
    await page.goto(`${suite.server.url}/profile`);
    await askForBusinessProfile(
      page,
      {
        name: member.business,
        category: "Services",
        description: way.lang === "en" ? "Repairs of all kinds" : "Réparations en tout genre",
        address: "1 place du Lac, Annecy",
      },
      { phone, t },
    );
    await shot(page, `my-business-${way.size}-${way.lang}`);

    const admin = await pageFor(way);
    await signInToDashboard(admin.page, suite.server.url, "admin@example.com", DEMO_PASSWORD, {
      email: t("Email"),
      password: t("Password"),
      signIn: t("Sign in"),
    });
    await openAccountRequests(admin.page);
    await admin.page
      .getByRole("region", { name: t("Business profiles") })
      .getByText(member.business)
      .waitFor();
    await shot(admin.page, `business-requests-${way.size}-${way.lang}`);
    await approveBusinessProfile(admin.page, member.business, { phone, t });
    await admin.context.close();

    await page.goto(`${suite.server.url}/carto`);
    await searchDirectory(page, member.business, t);
    await showsCount(page, 1, t);
    await markers(page).first().waitFor();
    await openBusiness(page, member.business, { phone, t });
    await page.getByRole("link", { name: t("Pay"), exact: true }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("the owners", () => {
  it("add a category in both languages, which members then choose and visitors filter by", async () => {
    const { page, context, errors } = await pageFor(WAYS[2]);
    await signInToDashboard(page, suite.server.url, "admin@example.com");
    await page.goto(`${suite.server.url}/admin/settings`);
    await addCategory(page, "Bookshops", "Librairies");
    await page.goto(`${suite.server.url}/carto`);
    await showsCount(page, 12 + MEMBERS.length);
    expect(await page.getByLabel("Category", { exact: true }).locator("option").allInnerTexts()).toContain("Bookshops");
    await filterByCategory(page, "Bookshops");
    await showsCount(page, 0);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("the board", () => {
  it("sees how many businesses are listed and paid, and their share of the payments", async () => {
    const { page, context, errors } = await pageFor(WAYS[1]);
    // Without an account of their own, the board's member lands on their work.
    await signIn(page, suite.server.url, "board@example.com", DEMO_PASSWORD, {
      email: french("Email"),
      password: french("Password"),
      signIn: french("Sign in"),
    });
    await page.waitForURL((u) => u.pathname.startsWith("/admin"));
    await page.goto(`${suite.server.url}/admin/figures`);
    const figures = await businessFigures(page, french);
    // The demo's twelve and the two the members asked for; Pressing Vert was paid by each visitor.
    expect(figures[french("Listed on the map")]).toBe(String(12 + MEMBERS.length));
    expect(Number(figures[french("Paid in the last 30 days")])).toBeGreaterThanOrEqual(1);
    expect(figures[french("Share of payments to businesses (30 days)")]).toMatch(/%/);
    await shot(page, "figures-businesses-1280x800-fr");
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("the association's website", () => {
  it("frames the map only from the origins the owners list, and reads the directory as GeoJSON and CSV", async () => {
    // Two sites of the association's, on other origins: one listed, one not.
    const site = `<!doctype html><title>Site</title><iframe id="map" title="Map" src="${suite.server.url}/carto?embed=1" width="800" height="600"></iframe>`;
    const servers = await Promise.all(
      [0, 1].map(async () => {
        const s = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(site));
        await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
        return { server: s, origin: `http://localhost:${(s.address() as AddressInfo).port}` };
      }),
    );
    const [listed, other] = servers as [(typeof servers)[0], (typeof servers)[0]];
    await setDirectorySettings(suite.server.url, { embedOrigins: [listed.origin] });
    const { page, context } = await newPage(suite.browser, { viewport: { width: 1280, height: 800 } });
    // The site's page loads once its frame has: the map, or the browser's refusal in its place.
    const framed = async (origin: string) => {
      await page.goto(`${origin}/`, { waitUntil: "load" });
      const frame = page.frames().find((f) => f !== page.mainFrame())!;
      return frame.url().startsWith(suite.server.url);
    };
    expect(await framed(listed.origin)).toBe(true);
    await page.frameLocator("#map").getByRole("heading", { name: "Map" }).waitFor();
    // Without the app's chrome.
    expect(await page.frameLocator("#map").locator(".navbar").isVisible()).toBe(false);
    await shot(page, "directory-embed-1280x800-en");
    expect(await framed(other.origin)).toBe(false);
    for (const s of servers) s.server.close();
    await context.close();

    const geo = (await (await fetch(`${suite.server.url}/api/directory.geojson`)).json()) as { features: { properties: { name: string } }[] };
    expect(geo.features.map((f) => f.properties.name)).toContain("Le Fournil du Lac");
    // The businesses' public fields, never their members: neither their names nor their addresses.
    expect(JSON.stringify(geo)).not.toMatch(/@example\.com|Omar|Vapeur|Louise Boulanger/);
    const csv = await (await fetch(`${suite.server.url}/api/directory.csv`)).text();
    expect(csv.split("\r\n")[0]).toContain('"name"');
    expect(csv).not.toMatch(/@example\.com|Omar|Vapeur|Louise Boulanger/);
  });
});
