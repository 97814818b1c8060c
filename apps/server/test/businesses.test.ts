import { beforeAll, describe, expect, it } from "vitest";
import { SM, isOpenAt, type OpeningHours } from "@mutua/domain";
import { openCustodialWallet, type BackendRow } from "../src/services/wallets/wallets";
import { CSV_COLUMNS } from "../src/services/shops/directory-export";
import { Api, createBackend, http, memberToken, newKey, seedMember, topUp, TINY_PNG } from "./helpers";
import { setupServerTest } from "./setup";

/**
 * The directory of businesses (docs/architecture.md "The directory"): a member asks for a
 * business profile, an account administrator approves it, and only then is it public — on the
 * map, in the search, in the GeoJSON and the CSV, which hold exactly its public fields. A member
 * who never asked, or whose profile waits, appears nowhere. "Open now" is read at a fixed instant.
 */

const t = setupServerTest();
let custodial: BackendRow;
let admin: Api;
let owner: Api;
const anonymous = () => new Api(t.server.baseUrl);

/** Monday to Friday 09:00–12:30 and 14:00–18:30, Saturday 10:00–02:00 (past midnight); Christmas closed. */
const HOURS: OpeningHours = {
  weekly: [
    ...[0, 1, 2, 3, 4].flatMap((day) => [
      { day, open: "09:00", close: "12:30" },
      { day, open: "14:00", close: "18:30" },
    ]),
    { day: 5, open: "10:00", close: "02:00" },
  ],
  exceptions: [{ date: "2026-12-25", closed: true }],
};

const profile = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  categoryId: null as number | null,
  description: "Sourdough and pastries",
  address: "3 rue du Lac, Annecy",
  hours: HOURS,
  phone: "+33 4 50 00 00 00",
  website: "https://bakery.example",
  location: { lat: 45.8992, lon: 6.1294 },
  accepts: [] as string[],
  till: true,
  ...extra,
});

async function member(firstName: string) {
  const m = await seedMember(t.db, { firstName, lastName: "Private" });
  const wallet = await openCustodialWallet(t.db, custodial, m.id, "active");
  return { ...m, wallet, api: new Api(t.server.baseUrl, await memberToken(t.db, m.id)) };
}

beforeAll(async () => {
  custodial = await createBackend(t.db, { kind: "custodial" });
  admin = new Api(t.server.baseUrl, await memberToken(t.db, (await seedMember(t.db, { canValidateAccounts: true })).id));
  owner = new Api(t.server.baseUrl, await memberToken(t.db, (await seedMember(t.db, { canManageAssociation: true })).id));
});

describe("a business profile", () => {
  it("is public only once approved; a member never listed appears in neither the directory, the search, the GeoJSON nor the CSV", async () => {
    const baker = await member("Zephyrine");
    const hidden = await member("Quillon");
    const asked = await baker.api.call("saveMyBusiness", { body: profile("Fournil du Lac", { accepts: [custodial.id] }) });
    expect(asked.status, JSON.stringify(asked.json)).toBe(200);
    expect(asked.json).toMatchObject({ status: "pending", name: "Fournil du Lac" });
    const id = asked.json.id;
    const listedIds = async () => (await anonymous().call("getDirectory")).json.businesses.map((b) => b.id);
    expect(await listedIds()).not.toContain(id);
    expect((await anonymous().call("getBusiness", { params: { businessId: id } })).status).toBe(404);
    expect((await baker.api.call("getBusinessPayee", { params: { businessId: id } })).status).toBe(404);

    const pending = (await admin.call("listBusinessRequests")).json;
    expect(pending.find((r) => r.id === id)).toMatchObject({ memberEmail: baker.email, status: "pending" });
    expect((await admin.call("approveBusiness", { params: { businessId: id } })).json.status).toBe("approved");
    // Approving again changes nothing; a decided profile is not discarded back to pending.
    expect((await admin.call("approveBusiness", { params: { businessId: id } })).status).toBe(200);
    expect(await listedIds()).toContain(id);

    const everywhere = [
      JSON.stringify((await anonymous().call("getDirectory")).json),
      JSON.stringify((await anonymous().call("getDirectory", { query: { q: "Private" } })).json),
      JSON.stringify((await anonymous().call("getDirectory", { query: { q: "Quillon" } })).json),
      (await http(t.server.baseUrl, "GET", "/api/directory.geojson")).text,
      (await http(t.server.baseUrl, "GET", "/api/directory.csv")).text,
    ];
    for (const text of everywhere) {
      for (const secret of ["Quillon", "Zephyrine", "Private", hidden.email, baker.email, hidden.wallet, baker.wallet]) expect(text).not.toContain(secret);
    }
    expect((await anonymous().call("getDirectory", { query: { q: "quillon" } })).json.businesses).toEqual([]);
    // Found by the words of its name and description, accents and case ignored.
    expect((await anonymous().call("getDirectory", { query: { q: "fournil SOURDOUGH" } })).json.businesses.map((b) => b.id)).toEqual([id]);

    // A signed-in member learns whom to pay: the baker, into the wallet the business takes.
    const payer = await member("Payer");
    const payee = await payer.api.call("getBusinessPayee", { params: { businessId: id } });
    expect(payee.json).toEqual({ memberId: Number(baker.id), walletId: baker.wallet, name: "Zephyrine Private" });
    expect((await anonymous().call("getBusinessPayee", { params: { businessId: id } })).status).toBe(401);

    // Withdrawn, it is gone at once.
    expect((await baker.api.call("removeMyBusiness")).status).toBe(200);
    expect(await listedIds()).not.toContain(id);
  });

  it("refuses bad input with a clear message, never a 500", async () => {
    const m = await member("Badinput");
    const bad = [
      profile("X", { categoryId: 999_999 }),
      profile("X", { accepts: ["custodial:nope"] }),
      profile("X", { website: "javascript:alert(1)" }),
      profile("X", { hours: { weekly: [{ day: 7, open: "09:00", close: "10:00" }], exceptions: [] } }),
      profile("X", { hours: { weekly: [{ day: 1, open: "9h", close: "10:00" }], exceptions: [] } }),
      profile("X", { hours: { weekly: [], exceptions: [{ date: "2026-12-24", closed: false }] } }),
      profile("X", { location: { lat: 91, lon: 0 } }),
      profile(""),
      profile("x".repeat(101)),
    ];
    for (const body of bad) {
      const r = await m.api.call("saveMyBusiness", { body: body as never });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.message.length).toBeGreaterThan(0);
    }
    const category = await m.api.call("saveMyBusiness", { body: profile("X", { categoryId: 999_999 }) });
    expect(category.json.error.msgid).toBe(SM.businessCategoryUnknown);
    expect((await m.api.call("uploadMyBusinessPhoto", { body: { data: TINY_PNG.toString("base64") } })).status).toBe(404);
    expect((await admin.call("approveBusiness", { params: { businessId: "bz_not-a-business" } })).status).toBe(404);
  });

  it("keeps its photo, served to anybody once listed", async () => {
    const m = await member("Photographer");
    const { id } = (await m.api.call("saveMyBusiness", { body: profile("Studio") })).json;
    const saved = await m.api.call("uploadMyBusinessPhoto", { body: { data: TINY_PNG.toString("base64") } });
    expect(saved.json.photoUrl).toMatch(/^\/api\/directory\/businesses\/.+\/photo\?v=\d+$/);
    expect((await http(t.server.baseUrl, "GET", saved.json.photoUrl!)).status).toBe(404);
    await admin.call("approveBusiness", { params: { businessId: id } });
    const photo = await fetch(t.server.baseUrl + saved.json.photoUrl!);
    expect([photo.status, photo.headers.get("content-type")]).toEqual([200, "image/png"]);
    await m.api.call("removeMyBusiness");
  });
});

describe("open now", () => {
  const paris = "Europe/Paris";
  it("reads the hours in the association's time zone, past midnight and on exceptions, at a fixed instant", () => {
    // Monday 7 December 2026, 10:00 in Paris is 09:00 UTC.
    expect(isOpenAt(HOURS, new Date("2026-12-07T09:00:00Z"), paris)).toBe(true);
    expect(isOpenAt(HOURS, new Date("2026-12-07T12:00:00Z"), paris)).toBe(false); // 13:00, lunch
    expect(isOpenAt(HOURS, new Date("2026-12-07T17:29:00Z"), paris)).toBe(true); // 18:29
    expect(isOpenAt(HOURS, new Date("2026-12-07T17:30:00Z"), paris)).toBe(false); // 18:30
    // Saturday 12th 23:30 and Sunday 13th 01:30 (the Saturday opening runs to 02:00); not 02:30.
    expect(isOpenAt(HOURS, new Date("2026-12-12T22:30:00Z"), paris)).toBe(true);
    expect(isOpenAt(HOURS, new Date("2026-12-13T00:30:00Z"), paris)).toBe(true);
    expect(isOpenAt(HOURS, new Date("2026-12-13T01:30:00Z"), paris)).toBe(false);
    // Christmas is a Friday, closed all day.
    expect(isOpenAt(HOURS, new Date("2026-12-25T09:00:00Z"), paris)).toBe(false);
  });

  it("filters the directory by category and by open at the instant asked", async () => {
    const saved = await owner.call("saveDirectorySettings", {
      body: {
        categories: [
          { id: null, en: "Bakery", fr: "Boulangerie" },
          { id: null, en: "Bar", fr: "Bar" },
        ],
        tileUrl: null,
        tileAttribution: null,
        geocoderUrl: null,
        timeZone: "Europe/Paris",
        embedOrigins: [],
      },
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    const [bakery, bar] = saved.json.categories.map((c) => c.id) as [number, number];
    const day = await member("Dayshop");
    const night = await member("Nightshop");
    const a = (await day.api.call("saveMyBusiness", { body: profile("Day bakery", { categoryId: bakery }) })).json.id;
    const nightHours = { weekly: [0, 1, 2, 3, 4, 5, 6].map((d) => ({ day: d, open: "18:00", close: "01:00" })), exceptions: [] };
    const b = (await night.api.call("saveMyBusiness", { body: profile("Night bar", { categoryId: bar, hours: nightHours }) })).json.id;
    for (const id of [a, b]) await admin.call("approveBusiness", { params: { businessId: id } });
    const ids = async (query: { category?: number; openAt?: string }) =>
      (await anonymous().call("getDirectory", { query })).json.businesses.map((x) => x.id).sort();
    expect(await ids({ category: bakery })).toEqual([a]);
    expect(await ids({ category: bar })).toEqual([b]);
    expect(await ids({ openAt: "2026-12-07T10:00:00+01:00" })).toEqual([a]);
    expect(await ids({ openAt: "2026-12-08T00:30:00+01:00" })).toEqual([b]);
    expect(await ids({ openAt: "2026-12-07T13:30:00+01:00" })).toEqual([]);
    expect((await anonymous().call("getDirectory", { query: { openAt: "soon" } as never })).status).toBe(400);

    // The exports hold exactly the public fields.
    const geo = JSON.parse((await http(t.server.baseUrl, "GET", "/api/directory.geojson")).text) as {
      type: string;
      features: { geometry: { coordinates: number[] }; properties: Record<string, unknown> }[];
    };
    expect(geo.type).toBe("FeatureCollection");
    const feature = geo.features.find((f) => f.properties.id === a)!;
    expect(Object.keys(feature.properties).sort()).toEqual(
      ["accepts", "address", "category", "description", "hours", "id", "name", "phone", "photoUrl", "till", "url", "website"].sort(),
    );
    expect(feature.geometry.coordinates).toEqual([6.1294, 45.8992]);
    expect(feature.properties.category).toEqual({ en: "Bakery", fr: "Boulangerie" });
    const csv = await http(t.server.baseUrl, "GET", "/api/directory.csv");
    expect(csv.headers.get("access-control-allow-origin")).toBe("*");
    const [header, ...lines] = csv.text
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(header).toBe(CSV_COLUMNS.map((c) => `"${c}"`).join(","));
    expect(lines.find((l) => l.includes("Day bakery"))).toContain('"Mon 09:00-12:30, 14:00-18:30; ');
  });
});

describe("the directory's settings", () => {
  it("let only the origins the owners list frame the embeddable map, and the tile server be asked for images", async () => {
    const save = (embedOrigins: string[], tileUrl: string | null = null) =>
      owner.call("saveDirectorySettings", {
        body: { categories: [], tileUrl, tileAttribution: tileUrl ? "Tiles of the test" : null, geocoderUrl: null, timeZone: "Europe/Paris", embedOrigins },
      });
    expect((await save(["https://asso.example", "not an origin"])).status).toBe(400);
    expect((await save(["https://asso.example"], "http://127.0.0.1:9/{z}/{x}/{y}.png")).status).toBe(200);
    // Every instance reads the association's row again when it changes: wait for this one's copy.
    await expect
      .poll(async () => (await http<{ directory: { embedOrigins: string[] } }>(t.server.baseUrl, "GET", "/config.json")).json.directory.embedOrigins)
      .toEqual(["https://asso.example"]);
    const embed = await http(t.server.baseUrl, "GET", "/carto?embed=1");
    expect(embed.headers.get("content-security-policy")).toContain("frame-ancestors 'self' https://asso.example");
    expect(embed.headers.get("x-frame-options")).toBeNull();
    const app = await http(t.server.baseUrl, "GET", "/carto");
    expect(app.headers.get("content-security-policy")).toMatch(/frame-ancestors 'self'$/);
    expect(app.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(app.headers.get("content-security-policy")).toMatch(/img-src [^;]* http:\/\/127\.0\.0\.1:9[;\s]/);
    const config = (await http<{ directory: Record<string, unknown> }>(t.server.baseUrl, "GET", "/config.json")).json.directory;
    expect(config).toMatchObject({ tileUrl: "http://127.0.0.1:9/{z}/{x}/{y}.png", tileAttribution: "Tiles of the test" });
    // Nobody but an owner reads or changes them (the authorization matrix has every role).
    expect((await admin.call("getDirectorySettings")).status).toBe(403);
  });
});

describe("the board's figure", () => {
  it("counts the listed and active businesses and the share of payments that went to them", async () => {
    const board = new Api(t.server.baseUrl, await memberToken(t.db, (await seedMember(t.db, { canViewFigures: true })).id));
    const before = (await board.call("getBusinessFigures")).json;
    const shop = await member("Figureshop");
    const { id } = (await shop.api.call("saveMyBusiness", { body: profile("Figure shop") })).json;
    await admin.call("approveBusiness", { params: { businessId: id } });
    const customer = await member("Customer");
    const friend = await member("Friend");
    await topUp(t.db, customer.wallet, "50.00");
    for (const to of [shop.wallet, shop.wallet, shop.wallet, friend.wallet]) {
      const r = await customer.api.call("transfer", { body: { from: customer.wallet, to, parts: [{ account: "main", amount: "1.00" }], key: newKey("fig") } });
      expect(r.status).toBe(200);
    }
    const after = (await board.call("getBusinessFigures")).json;
    expect(after.listed - before.listed).toBe(1);
    expect(after.active - before.active).toBe(1);
    expect([after.payments - before.payments, after.toBusinesses - before.toBusinesses]).toEqual([4, 3]);
    expect(after.share).toBeGreaterThan(0);
    expect((await shop.api.call("getBusinessFigures")).status).toBe(403);
  });
});
