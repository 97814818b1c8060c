import { beforeAll, describe, expect, it } from "vitest";
import { routes, SM, type FederationTerms } from "@mutua/domain";
import { tellTerms } from "../src/services/federation/link-terms";
import { retryAfterSeconds } from "../src/services/federation/peer-outbox";
import { federationKey } from "../src/services/federation/server-key";
import type { PeerRequest } from "../src/services/federation/peer-net";
import { auditActions, links, linkSides, netOf, restart, side, signedCall, sidesOfThisFile, stop, TERMS_A, wire, type Side } from "./federation-sides";

/**
 * A change of a link's terms made while the other server is down: kept, shown to the owner as not
 * received yet, sent again by the due work until the other server answers, and recorded there
 * once; an older change arriving late, or the same one again, changes nothing there.
 */
const sides = sidesOfThisFile();
let a: Side;
let b: Side;

// A's due work polls once an hour: this test runs A's step itself, so that nothing else sends meanwhile.
const QUIET = { DUE_POLL_SECONDS: "3600" };

beforeAll(async () => {
  [a, b] = await Promise.all([side("Association A", "AAA", QUIET), side("Association B", "BBB")]);
  sides.push(a, b);
  await linkSides(a, b);
});

const outbox = async () =>
  (
    await a.db.query<{ attempts: number; due: boolean; last_error: string | null }>(
      "SELECT attempts, next_try_at <= now() AS due, last_error FROM federation_outbox WHERE kind = 'terms'",
    )
  ).rows;
const termsPath = routes.peerLinkTerms.path;

describe("terms changed while the other server is down", () => {
  const OFF: FederationTerms = { ...TERMS_A, enabled: false };
  const LATER: FederationTerms = { ...TERMS_A, trustLimit: "75.00", enabled: false };
  /** The terms messages A sent B, as they left A, whether B got them or not. */
  const sent: PeerRequest[] = [];

  it("is saved on A and shown as not received by B; the next try waits longer after each failure", async () => {
    await stop(b);
    wire.wrap = async (request, send) => {
      if (request.url.endsWith(termsPath)) sent.push(request);
      return send(request);
    };
    const [atA] = await links(a);
    const changed = await a.owner.call("setFederationLinkTerms", { params: { linkId: atA!.id }, body: { terms: OFF } });
    // Saved: switching a link off works while the other server is down, and the owner is not asked to save again.
    expect(changed.status).toBe(200);
    expect(changed.json).toMatchObject({ terms: OFF, termsPending: true });
    expect(await outbox()).toEqual([{ attempts: 1, due: false, last_error: SM.federationPeerUnreachable }]);
    // Not due yet: the step finds nothing to send.
    expect(await tellTerms(netOf(a), a.db, "due")).toBe(false);

    const again = await a.owner.call("setFederationLinkTerms", { params: { linkId: atA!.id }, body: { terms: LATER } });
    expect(again.json).toMatchObject({ terms: LATER, termsPending: true });
    expect(await outbox()).toEqual([{ attempts: 2, due: false, last_error: SM.federationPeerUnreachable }]);
    expect(sent.map((r) => JSON.parse(r.body!).version)).toEqual([2, 3]);
    expect(retryAfterSeconds(0)).toBe(10);
    expect(retryAfterSeconds(1)).toBe(20);
    expect(retryAfterSeconds(30)).toBe(15 * 60);
    expect((await links(a))[0]).toMatchObject({ termsPending: true });
  });

  it("B back, the due work sends the newest terms once: B records them, A shows them received", async () => {
    await restart(b);
    const before = (await auditActions(b)).filter((x) => x === "federation.peer_terms_changed").length;
    const delivered: number[] = [];
    wire.wrap = async (request, send) => {
      const answer = await send(request);
      if (request.url.endsWith(termsPath)) delivered.push(answer.status);
      return answer;
    };
    // Its time come (the database's clock, as every instance reads it).
    await a.db.query("UPDATE federation_outbox SET next_try_at = now()");
    expect(await tellTerms(netOf(a), a.db, "due")).toBe(true);
    expect(await tellTerms(netOf(a), a.db, "due")).toBe(false);
    expect(delivered).toEqual([200]);
    expect(await outbox()).toEqual([]);
    expect((await links(b))[0]).toMatchObject({ peerTerms: LATER, ratesAgree: true });
    expect((await links(a))[0]).toMatchObject({ terms: LATER, termsPending: false });
    expect((await auditActions(b)).filter((x) => x === "federation.peer_terms_changed")).toHaveLength(before + 1);
  });

  it("an older change arriving late, and the newest again, are answered and change nothing at B", async () => {
    const auditBefore = await auditActions(b);
    // A's first try of its first change (version 2), which never reached B, arrives now.
    const [late] = sent;
    const res = await fetch(late!.url, { method: late!.method, headers: late!.headers, body: late!.body! });
    expect(res.status).toBe(200);
    expect((await links(b))[0]).toMatchObject({ peerTerms: LATER });
    // The newest (version 3) again, under a new signature.
    const same = await signedCall(b, await federationKey(a.db), "peerLinkTerms", { terms: OFF, version: 3 });
    expect(same.status).toBe(200);
    expect((await links(b))[0]).toMatchObject({ peerTerms: LATER });
    expect(await auditActions(b)).toEqual(auditBefore);
    // A newer one is recorded: the control.
    const newer = await signedCall(b, await federationKey(a.db), "peerLinkTerms", { terms: TERMS_A, version: 4 });
    expect(newer.status).toBe(200);
    expect((await links(b))[0]).toMatchObject({ peerTerms: TERMS_A });
    // A version that is not a positive whole number is refused as bad input.
    expect((await signedCall(b, await federationKey(a.db), "peerLinkTerms", { terms: TERMS_A, version: 0 })).status).toBe(400);
  });
});
