import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { previewImport } from "../src/services/import/preview";
import { readMembersFile, type MemberRow } from "../src/services/import/members-file";
import { runImport, type ImportOutcome } from "../src/services/import/write";
import { saveMyBusiness } from "../src/services/shops/businesses";
import { Api, createBackend, http, seedMember } from "./helpers";
import { setupServerTest } from "./setup";

/**
 * Shops brought in by the import (services/import/business-fields.ts, write-businesses.ts): a
 * line whose business cell says yes becomes an approved profile, listed in the directory with the
 * file's fields, in the import's own transaction; a private member is listed nowhere; a bad
 * coordinate or a name too long is a problem on its line; a category the association lacks is a
 * warning; the same file again makes no second profile, and a profile a member has is kept.
 */
const t = setupServerTest();
let dir: string;
let bakery: number;
const anonymous = () => new Api(t.server.baseUrl);

const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
};

const imported = (o: ImportOutcome) => {
  if (o.kind !== "imported") throw new Error(`refused: ${JSON.stringify(o.problems)}`);
  return o;
};

const profilesOf = async (email: string) =>
  (
    await t.db.query<{ name: string; status: string; decided_by: bigint | null }>(
      "SELECT b.name, b.status, b.decided_by FROM businesses b JOIN members m ON m.id = b.member_id WHERE m.email = $1",
      [email],
    )
  ).rows;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mutua-import-businesses-"));
  const backend = await createBackend(t.db, { kind: "custodial", symbol: "FLO" });
  await t.db.query("UPDATE association SET currency_id = $1", [backend.currency_id]);
  const { rows } = await t.db.query<{ id: bigint }>(
    "INSERT INTO business_categories (name_en, name_fr) VALUES ('Bakery', 'Boulangerie'), ('Grocery', 'Épicerie') RETURNING id",
  );
  bakery = Number(rows[0]!.id);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const HEADER =
  "external_id,first_name,last_name,email,balance,business,business_name,category,description,address,postcode,city,business_phone,website,latitude,longitude";

describe("shops in the members file", () => {
  it("are listed at once, approved, with the file's fields; a private member appears nowhere; the same file again makes no second profile", async () => {
    const members = write(
      "shops.csv",
      `${HEADER}
s1,Jeanne,Fournier,jeanne.shop@example.org,10.00,yes,Fournil du Lac,boulangerie,Sourdough and pastries,3 rue du Lac,74000,Annecy,+33 4 50 00 00 00,www.fournil.example,"45,8992",6.1294
s2,Paul,Quincaud,paul.shop@example.org,0,1,,Quincaillerie,,,,,,,,
s3,Rosalind,Privatia,rosalind.private@example.org,5.00,,,,Her own diary,7 impasse Secrète,,,+33 6 99 99 99 99,,95,500
`,
    );
    const preview = await previewImport(t.db, { members, by: null });
    expect(preview.problems).toEqual([]);
    expect(preview.members).toMatchObject({ toImport: 3, businesses: 2, businessesKept: 0 });
    // A category the association lacks: said on its line, and the shop comes without one.
    expect(preview.warnings).toEqual([
      { file: members, line: 3, column: "category", value: "Quincaillerie", reference: "s2", message: expect.stringContaining("listed without one") },
    ]);

    const audits = async () => (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log")).rows[0]!.n;
    const auditsBefore = await audits();
    const out = imported(await runImport(t.db, { members, by: null }));
    expect(out).toMatchObject({ members: 3, businesses: 2 });
    // The import's one entry says how many: no entry per profile.
    expect(await audits()).toBe(auditsBefore + 1);
    const { rows: audit } = await t.db.query<{ details: { businesses: number } }>(
      "SELECT details FROM audit_log WHERE action = 'import.run' ORDER BY id DESC LIMIT 1",
    );
    expect(audit[0]!.details.businesses).toBe(2);

    const directory = (await anonymous().call("getDirectory")).json;
    const fournil = directory.businesses.find((b) => b.name === "Fournil du Lac");
    expect(fournil).toMatchObject({
      categoryId: bakery,
      description: "Sourdough and pastries",
      address: "3 rue du Lac, 74000 Annecy",
      phone: "+33 4 50 00 00 00",
      website: "https://www.fournil.example",
      location: { lat: 45.8992, lon: 6.1294 },
    });
    // No business name: the member's; an unknown category: none.
    expect(directory.businesses.find((b) => b.name === "Paul Quincaud")).toMatchObject({ categoryId: null, location: null });
    expect(await profilesOf("jeanne.shop@example.org")).toEqual([{ name: "Fournil du Lac", status: "approved", decided_by: null }]);

    const geojson = (await http(t.server.baseUrl, "GET", "/api/directory.geojson")).text;
    expect(JSON.parse(geojson).features.find((f: { properties: { name: string } }) => f.properties.name === "Fournil du Lac").geometry).toEqual({
      type: "Point",
      coordinates: [6.1294, 45.8992],
    });
    const everywhere = [JSON.stringify(directory), geojson, (await http(t.server.baseUrl, "GET", "/api/directory.csv")).text];
    for (const text of everywhere) for (const secret of ["Rosalind", "Privatia", "diary", "Secrète", "99 99 99"]) expect(text).not.toContain(secret);
    expect(await profilesOf("rosalind.private@example.org")).toEqual([]);

    // Again: nothing new, and still one profile each.
    const again = imported(await runImport(t.db, { members, by: null }));
    expect(again).toMatchObject({ members: 0, businesses: 0, alreadyImported: 3 });
    expect((await previewImport(t.db, { members, by: null })).members.businesses).toBe(0);
    expect(await profilesOf("jeanne.shop@example.org")).toHaveLength(1);
    expect((await anonymous().call("getDirectory")).json.businesses.filter((b) => b.name === "Fournil du Lac")).toHaveLength(1);
  });

  it("takes a shop's one name, never asking it for a first name; its history lines import", async () => {
    const members = write(
      "one-name.csv",
      `${HEADER}
n1,,Biocoop du Lac,biocoop@example.org,12.50,oui,,,,,,,,,,
n2,Zoé,Client,zoe.client@example.org,7.50,,,,,,,,,,,
n3,,,sans-nom@example.org,0,1,Épicerie Verte,,,,,,,,,
`,
    );
    const history = write("one-name-history.csv", "date,from,to,amount,memo,reference\n2024-02-01,,n2,20.00,Change,T-0\n2024-03-01,n2,n1,12.50,Légumes,T-1\n");
    const preview = await previewImport(t.db, { members, history, by: null });
    expect(preview.problems).toEqual([]);
    expect(preview.history).toMatchObject({ lines: 2 });
    imported(await runImport(t.db, { members, history, by: null }));
    const { rows } = await t.db.query<{ email: string; name: string; first_name: string; last_name: string; balance: string }>(
      `SELECT m.email, m.name, m.first_name, m.last_name, a.balance::text AS balance FROM members m
       JOIN wallets w ON w.member_id = m.id JOIN accounts a ON a.wallet_id = w.id WHERE m.email IN ('biocoop@example.org', 'sans-nom@example.org') ORDER BY m.email`,
    );
    expect(rows).toEqual([
      { email: "biocoop@example.org", name: "Biocoop du Lac", first_name: "Biocoop du Lac", last_name: "", balance: "1250" },
      { email: "sans-nom@example.org", name: "Épicerie Verte", first_name: "Épicerie Verte", last_name: "", balance: "0" },
    ]);
    expect(await profilesOf("biocoop@example.org")).toMatchObject([{ name: "Biocoop du Lac", status: "approved" }]);
    // A person still needs both names.
    const person = write("no-first-name.csv", `${HEADER}\np1,,Seul,seul@example.org,0,,,,,,,,,,,\n`);
    expect((await previewImport(t.db, { members: person, by: null })).problems).toMatchObject([
      { line: 2, column: "first_name", message: expect.stringContaining("first name is required") },
    ]);
  });

  it("refuses a line whose coordinate is out of range, half a location or a name too long: a problem on its line, nothing written", async () => {
    const members = write(
      "bad-shops.csv",
      `${HEADER}
b1,Ana,Lat,ana.bad@example.org,0,yes,,,,,,,,,91.5,2.35
b2,Ben,Half,ben.bad@example.org,0,yes,,,,,,,,,48.85,
b3,Cy,Long,cy.bad@example.org,0,yes,${"N".repeat(101)},,,,,,,,,
b4,Di,Web,di.bad@example.org,0,yes,,,,,,,,javascript:alert(1),,
`,
    );
    const preview = await previewImport(t.db, { members, by: null });
    expect(preview.problems.map((p) => [p.line, p.column, p.message])).toEqual([
      [2, "latitude", expect.stringContaining("out of range: a latitude is between -90 and 90")],
      [3, "latitude", "a location needs both a latitude and a longitude, or neither"],
      [4, "business_name", expect.stringContaining("longer than 100 characters")],
      [5, "website", expect.stringContaining("not a website")],
    ]);
    const out = await runImport(t.db, { members, by: null });
    expect(out.kind).toBe("refused");
    expect(await profilesOf("ana.bad@example.org")).toEqual([]);
    expect((await t.db.query("SELECT 1 FROM members WHERE email LIKE '%.bad@example.org'")).rowCount).toBe(0);
  });

  it("keeps the profile a member already here has; makes none for one whose address is not proven", async () => {
    const own = await seedMember(t.db, { email: "own.shop@example.org", firstName: "Odile", lastName: "Own" });
    const unproven = await seedMember(t.db, { email: "unproven.shop@example.org", firstName: "Ugo", lastName: "Unproven" });
    await t.db.query("UPDATE members SET email_verified_at = now() WHERE id = $1", [own.id]);
    await t.db.query("UPDATE members SET email_verified_at = NULL WHERE id = $1", [unproven.id]);
    await saveMyBusiness(t.db, own.id, {
      name: "Odile's own words",
      categoryId: null,
      description: "",
      address: "",
      hours: { weekly: [], exceptions: [] },
      phone: "",
      website: "",
      location: null,
      accepts: [],
      till: false,
    });
    const members = write(
      "existing-shops.csv",
      `${HEADER}
e1,Odile,Own,own.shop@example.org,0,yes,From the old system,,,,,,,,,
e2,Ugo,Unproven,unproven.shop@example.org,0,yes,Ugo's shop,,,,,,,,,
`,
    );
    const preview = await previewImport(t.db, { members, by: null });
    expect(preview.members).toMatchObject({ businesses: 0, businessesKept: 1 });
    expect(preview.warnings.map((w) => [w.line, w.message])).toEqual([[3, expect.stringContaining("has not proven this address")]]);
    expect(imported(await runImport(t.db, { members, by: null })).businesses).toBe(0);
    expect(await profilesOf("own.shop@example.org")).toEqual([{ name: "Odile's own words", status: "pending", decided_by: null }]);
    expect(await profilesOf("unproven.shop@example.org")).toEqual([]);
  });
});

describe("Odoo's contacts", () => {
  it("make a company's profile of its own fields; a person's address is not read; 0, 0 is no location", async () => {
    const file = await readMembersFile(
      write(
        "odoo.csv",
        `id,name,email,phone,lang,is_company,street,zip,city,website,partner_latitude,partner_longitude,category_id,balance
base.res_partner_9,Épicerie SOL,sol@example.org,+33 4 00 00 00 09,fr_FR,True,12 rue Vive,74000,Annecy,sol.example,0.0,0.0,"Bio,Epicerie",5
base.res_partner_10,Anne Martin,anne.odoo@example.org,+33 6 00 00 00 10,fr_FR,False,8 rue Privée,74000,Annecy,,45.9,6.1,,0
`,
      ),
      { categories: [{ id: 7, en: "Grocery", fr: "Épicerie" }] },
    );
    const rows: MemberRow[] = [];
    for await (const r of file.rows) rows.push(r);
    expect(file.preset).toBe("odoo-contacts");
    expect(file.problems).toEqual([]);
    expect(rows.map((r) => r.profile)).toEqual([
      {
        name: "Épicerie SOL",
        categoryId: 7,
        description: "",
        address: "12 rue Vive, 74000 Annecy",
        phone: "+33 4 00 00 00 09",
        website: "https://sol.example",
        location: null,
      },
      null,
    ]);
  });
});
