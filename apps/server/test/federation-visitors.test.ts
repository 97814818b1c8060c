import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { routes } from "@mutua/domain";
import { links, linkSides, side, sidesOfThisFile, TERMS_A, TERMS_B, type Side } from "./federation-sides";
import { Api } from "./helpers";

/**
 * The associations a server is linked with, as anybody may read them (listLinkedAssociations): what
 * the page of one of its payment links offers a visitor who is a member of another association,
 * to pay from their own app (docs/federation.md, "the member's side"). Only the links a payment
 * could cross now, each association's name and address only, and nothing a caller's query names.
 */
const sides = sidesOfThisFile();
let a: Side;
let b: Side;

beforeAll(async () => {
  [a, b] = await Promise.all([side("Association A", "AAA"), side("Association B", "BBB")]);
  sides.push(a, b);
});

/** What B's server answers anybody, without a session. */
const listed = async (s: Side) => {
  const res = await new Api(s.url).call("listLinkedAssociations");
  expect(res.status).toBe(200);
  return res.json;
};

/** A link row of B's in `state`, to an address nobody answers at: what the list must leave out. */
async function linkRow(s: Side, state: "invited" | "accepted" | "active" | "replaced", name: string, enabled = { ours: true, theirs: true }) {
  const known = state !== "invited";
  const terms = state === "active" || state === "replaced";
  await s.db.query(
    `INSERT INTO federation_links (public_id, role, state, peer_url, peer_name, peer_key,
       our_value_e4, their_value_e4, trust_limit_cents, enabled, peer_our_value_e4, peer_their_value_e4, peer_trust_limit_cents, peer_enabled)
     VALUES ($1, 'invitee', $2, $3, $4, $5, $6, $6, $7, $8, $6, $6, $7, $9)`,
    [
      `fl_${randomBytes(12).toString("base64url")}`,
      state,
      known ? `https://${name.toLowerCase().replace(/\W+/g, "-")}.example` : null,
      known ? name : null,
      known ? randomBytes(32) : null,
      terms ? "10000" : null,
      terms ? "10000" : null,
      terms ? enabled.ours : null,
      terms ? enabled.theirs : null,
    ],
  );
}

describe("the associations a server is linked with, for a payment link's visitors", () => {
  it("lists, to anybody, the links active and switched on at both ends: each association's name and address, nothing else", async () => {
    expect(await listed(b)).toEqual([]);
    await linkSides(a, b);
    // Nothing but the name and the address: no key, terms, balance or link id.
    expect(await listed(b)).toEqual([{ name: "Association A", url: a.url }]);
    expect(await listed(a)).toEqual([{ name: "Association B", url: b.url }]);
    const raw = await (await fetch(`${b.url}${routes.listLinkedAssociations.path}`)).json();
    expect(raw.map((x: object) => Object.keys(x).sort())).toEqual([["name", "url"]]);

    // Links where no payment can cross now are not offered: not yet active, replaced, or off at either end.
    await linkRow(b, "invited", "Invited Association");
    await linkRow(b, "accepted", "Accepted Association");
    await linkRow(b, "replaced", "Replaced Association");
    await linkRow(b, "active", "Off Here", { ours: false, theirs: true });
    await linkRow(b, "active", "Off There", { ours: true, theirs: false });
    await linkRow(b, "active", "Cercle Zèbre");
    expect(await listed(b)).toEqual([
      { name: "Association A", url: a.url },
      { name: "Cercle Zèbre", url: "https://cercle-z-bre.example" },
    ]);
  });

  it("follows the owners' switch at either end: A switched off, B no longer offers it; on again, it does", async () => {
    const [atA] = await links(a);
    const off = await a.owner.call("setFederationLinkTerms", { params: { linkId: atA!.id }, body: { terms: { ...TERMS_A, enabled: false } } });
    expect(off.status).toBe(200);
    expect((await listed(b)).map((x) => x.name)).toEqual(["Cercle Zèbre"]);
    expect(await listed(a)).toEqual([]);
    await a.owner.call("setFederationLinkTerms", { params: { linkId: atA!.id }, body: { terms: TERMS_A } });
    const atB = (await links(b)).find((l) => l.peer?.url === a.url)!;
    await b.owner.call("setFederationLinkTerms", { params: { linkId: atB.id }, body: { terms: { ...TERMS_B, enabled: false } } });
    expect((await listed(b)).map((x) => x.name)).toEqual(["Cercle Zèbre"]);
    await b.owner.call("setFederationLinkTerms", { params: { linkId: atB.id }, body: { terms: TERMS_B } });
    expect((await listed(b)).map((x) => x.name)).toEqual(["Association A", "Cercle Zèbre"]);
  });

  it("offers no address a caller names: a query naming another origin changes nothing", async () => {
    const evil = "https://evil.example";
    const q = new URLSearchParams({ url: evil, across: evil, srv: evil, name: "Evil", origin: evil });
    const res = await fetch(`${b.url}${routes.listLinkedAssociations.path}?${q}`);
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).not.toContain("evil");
    expect(JSON.parse(body)).toEqual(await listed(b));
  });
});
