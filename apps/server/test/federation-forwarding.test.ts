import { beforeAll, describe, expect, it } from "vitest";
import type { FederationTerms } from "@mutua/domain";
import { tellRoutes } from "../src/services/federation/forwarding";
import { federationKey } from "../src/services/federation/server-key";
import { Api } from "./helpers";
import { auditActions, links, linkSides, netOf, restart, side, signedCall, sidesOfThisFile, stop, strangerKey, TERMS_A, type Side } from "./federation-sides";

/**
 * What a server forwards, told to its linked servers (docs/federation.md "Through an association
 * both trust"): A and C are each linked with B, not with each other. B's owners turn forwarding on
 * for the link with A: A learns it reaches C through B. Whatever changes what B reaches is told
 * again, until A acknowledged it; a list not signed by B's key, or older than the last, changes
 * nothing at A.
 */
const sides = sidesOfThisFile();
let a: Side;
let b: Side;
let c: Side;

// B's due work polls once an hour: the test runs B's step itself where it waits for one.
const QUIET = { DUE_POLL_SECONDS: "3600" };

beforeAll(async () => {
  [a, b, c] = await Promise.all([side("Association A", "AAA"), side("Association B", "BBB", QUIET), side("Association C", "CCC")]);
  sides.push(a, b, c);
  await linkSides(a, b);
  await linkSides(b, c);
});

const linkAt = async (s: Side, url: string) => (await links(s)).find((l) => l.peerUrl === url)!;
const reachAt = async (s: Side) => (await s.owner.call("listFederationLinks")).json.reach;
/** What a visitor of `s`'s payment links is offered: the associations they may pay from. */
const offeredAt = async (s: Side) => (await new Api(s.url).call("listLinkedAssociations")).json;
/** B's lists told, every one due (each link's server has its own): by the test, as B's due work would. */
async function routesTold() {
  while (await tellRoutes(netOf(b), b.db, "due"));
  await expect.poll(async () => (await b.db.query("SELECT 1 FROM federation_outbox WHERE kind = 'routes'")).rowCount, { timeout: 10_000 }).toBe(0);
}

describe("a board that forwards", () => {
  it("forwards nothing until its owners turn it on: A reaches nobody through B", async () => {
    expect((await linkAt(b, a.url)).forward).toBe(false);
    expect(await reachAt(a)).toEqual([]);
  });

  it("turned on for the link with A, tells A it reaches C, with B's terms with C", async () => {
    const link = await linkAt(b, a.url);
    const turned = await b.owner.call("setFederationLinkForwarding", { params: { linkId: link.id }, body: { forward: true } });
    expect(turned.status).toBe(200);
    expect(turned.json).toMatchObject({ id: link.id, forward: true });
    const viaB = await linkAt(a, b.url);
    expect(await reachAt(a)).toEqual([{ linkId: viaB.id, name: "Association C", url: c.url, currencySymbol: "CCC" }]);
    const [route] = (await a.db.query("SELECT url, via_value_e4, to_value_e4, headroom_cents, public_key FROM federation_routes")).rows;
    // B's terms with C (as B's side of linkSides(b, c): one of B's is 1, one of C's 0.8); C holds
    // at most 150.00 of B's currency, nothing yet: 187.50 of C's.
    expect(route).toMatchObject({ url: c.url, via_value_e4: 10000n, to_value_e4: 8000n, headroom_cents: 18750n });
    expect(Buffer.from(route.public_key).toString("base64url")).toBe((await federationKey(c.db)).keyId);
    expect(await auditActions(b)).toContain("federation.forwarding_changed");
    expect(await auditActions(a)).toContain("federation.peer_routes_changed");
    // B does not tell C what it reaches: it forwards nothing for C.
    expect(await reachAt(c)).toEqual([]);
  });

  it("tells C that A reaches it through B: C's payment links offer A's app beside B's, until B stops forwarding A's payments", async () => {
    // Told as forwarding was turned on, beside the answer to B's owner.
    await expect
      .poll(() => offeredAt(c), { timeout: 10_000 })
      .toEqual([
        { name: "Association A", url: a.url },
        { name: "Association B", url: b.url },
      ]);
    await routesTold();
    // Nothing of it for A: B forwards nobody's payments to A.
    expect(await offeredAt(a)).toEqual([{ name: "Association B", url: b.url }]);
    // C's owners read it on B's card, and in their audit log.
    const withB = await linkAt(c, b.url);
    expect((await c.owner.call("listFederationLinks")).json.reachedBy).toEqual([{ linkId: withB.id, name: "Association A", url: a.url }]);
    expect(await auditActions(c)).toContain("federation.peer_reached_by_changed");
    // B's link with C off: nobody reaches C through B, and C offers nobody through it.
    const withC = await linkAt(b, c.url);
    expect((await b.owner.call("setFederationLinkTerms", { params: { linkId: withC.id }, body: { terms: { ...TERMS_A, enabled: false } } })).status).toBe(200);
    await routesTold();
    expect(await offeredAt(c)).toEqual([]);
    expect((await b.owner.call("setFederationLinkTerms", { params: { linkId: withC.id }, body: { terms: TERMS_A } })).status).toBe(200);
    await routesTold();
    expect((await offeredAt(c)).map((x: { name: string }) => x.name)).toEqual(["Association A", "Association B"]);
  });

  it("tells A again when what it reaches changes: C switched off by B, then on", async () => {
    const withC = await linkAt(b, c.url);
    const off: FederationTerms = { ...TERMS_A, enabled: false };
    expect((await b.owner.call("setFederationLinkTerms", { params: { linkId: withC.id }, body: { terms: off } })).status).toBe(200);
    // The terms are told at once; the new list waits for B's due work (polling once an hour here):
    // told here, or by B's own due work when something woke it meanwhile (money moved, say): the
    // list A holds is what counts, whichever told it.
    await routesTold();
    expect(await reachAt(a)).toEqual([]);
    expect((await b.owner.call("setFederationLinkTerms", { params: { linkId: withC.id }, body: { terms: TERMS_A } })).status).toBe(200);
    await routesTold();
    expect((await reachAt(a)).map((r: { name: string }) => r.name)).toEqual(["Association C"]);
    expect(await tellRoutes(netOf(b), b.db, "due")).toBe(false);
  });

  it("told while A's server is down: kept, and told by B's due work once A is back", async () => {
    await stop(a);
    const link = await linkAt(b, a.url);
    // Off while A is away: saved at B, A not told yet.
    expect((await b.owner.call("setFederationLinkForwarding", { params: { linkId: link.id }, body: { forward: false } })).status).toBe(200);
    const waiting = (
      await b.db.query(
        "SELECT o.attempts, o.last_error FROM federation_outbox o JOIN federation_links l ON l.id = o.link_id WHERE o.kind = 'routes' AND l.peer_url = $1",
        [a.url],
      )
    ).rows;
    expect(waiting).toEqual([{ attempts: 1, last_error: expect.any(String) }]);
    await restart(a);
    await b.db.query("UPDATE federation_outbox SET next_try_at = now()");
    // Told by the due work's step here, or by B's own due work woken meanwhile (it was, once, in a
    // CI run): A's list is what counts, whichever told it.
    await routesTold();
    expect(await reachAt(a)).toEqual([]);
    // Nor does C offer A's app any more.
    expect(await offeredAt(c)).toEqual([{ name: "Association B", url: b.url }]);
    expect((await b.db.query("SELECT 1 FROM federation_outbox")).rowCount).toBe(0);
  });
});

describe("a list of routes told to A", () => {
  const route = async () => ({
    url: "https://d.example",
    name: "Association D",
    currencyName: "Dé",
    currencySymbol: "DDD",
    publicKey: (await federationKey(c.db)).keyId,
    values: { via: "1", to: "2" },
    headroom: "10.00",
  });

  it("is refused unless signed by the key of a server A is linked with", async () => {
    const forged = await signedCall(a, strangerKey(), "peerRoutes", { version: 99, routes: [await route()] });
    expect(forged.status).toBe(401);
    expect((await a.db.query("SELECT 1 FROM federation_routes WHERE url = 'https://d.example'")).rowCount).toBe(0);
  });

  it("replaces the last one only when newer: an older list arriving late changes nothing; names are checked", async () => {
    const bKey = await federationKey(b.db);
    const [{ peer_routes_version: last }] = (await a.db.query("SELECT peer_routes_version FROM federation_links WHERE peer_url = $1", [b.url])).rows;
    const next = Number(last) + 1;
    const hidden = { ...(await route()), url: "https://e.example", name: "Evil\u202Eassociation" };
    expect((await signedCall(a, bKey, "peerRoutes", { version: next, routes: [await route(), hidden] })).status).toBe(200);
    // The name that would display other than it reads is left out, the rest kept.
    expect((await reachAt(a)).map((r: { name: string }) => r.name)).toEqual(["Association D"]);
    expect((await signedCall(a, bKey, "peerRoutes", { version: next - 1, routes: [] })).status).toBe(200);
    expect((await reachAt(a)).map((r: { name: string }) => r.name)).toEqual(["Association D"]);
    expect((await signedCall(a, bKey, "peerRoutes", { version: next + 1, routes: [] })).status).toBe(200);
    expect(await reachAt(a)).toEqual([]);
  });

  it("offers on A's payment links only who it names over HTTPS with a name that reads as it displays, never B itself", async () => {
    const bKey = await federationKey(b.db);
    const [{ peer_routes_version: last }] = (await a.db.query("SELECT peer_routes_version FROM federation_links WHERE peer_url = $1", [b.url])).rows;
    const reachedBy = [
      { url: "https://d.example", name: "Association D" },
      { url: "http://plain.example", name: "Plain association" }, // a visitor sent over plain HTTP
      { url: "https://e.example", name: "Evil\u202Eassociation" },
      { url: b.url, name: "Association B again" },
      { url: "https://d.example/", name: "Association D twice" },
    ];
    expect((await signedCall(a, bKey, "peerRoutes", { version: Number(last) + 1, routes: [], reachedBy })).status).toBe(200);
    expect(await offeredAt(a)).toEqual([
      { name: "Association B", url: b.url },
      { name: "Association D", url: "https://d.example" },
    ]);
    expect((await signedCall(a, bKey, "peerRoutes", { version: Number(last) + 2, routes: [] })).status).toBe(200);
    expect(await offeredAt(a)).toEqual([{ name: "Association B", url: b.url }]);
  });
});
