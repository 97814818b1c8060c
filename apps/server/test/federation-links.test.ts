import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { routes, SM, type FederationTerms } from "@mutua/domain";
import { federationKey } from "../src/services/federation/server-key";
import { signRequest } from "../src/services/federation/signed-messages";
import { openCustodialWallet } from "../src/services/wallets/wallets";
import {
  auditActions,
  linkRows,
  links,
  linkSides,
  reinstall,
  side,
  signedAnswer,
  signedCall,
  strangerKey,
  TERMS_A,
  TERMS_B,
  sidesOfThisFile,
  wire,
  type Side,
} from "./federation-sides";
import { Api, createBackend, memberToken, seedMember } from "./helpers";

/**
 * Two associations, each with its own server and database, linked by their owners through the
 * console's operations; then what another server's messages must be to be heard: each attack on
 * the signed routes is refused with nothing changed on either side. (What anybody's server, or an
 * invitation code, can make a server store or reach: federation-reach.test.ts.)
 */
const sides = sidesOfThisFile();
let a: Side;
let b: Side;

beforeAll(async () => {
  [a, b] = await Promise.all([side("Association A", "AAA"), side("Association B", "BBB")]);
  sides.push(a, b);
});

describe("linking two associations", () => {
  it("A's owner invites, B's owner accepts with the code, A's confirms: active on both sides, with each side's terms and the other's", async () => {
    const described = await (await fetch(`${a.url}/.well-known/mutua-federation`)).json();
    expect(described).toMatchObject({ protocol: "mutua-federation/1", name: "Association A", url: a.url, currencySymbol: "AAA" });

    const invited = await a.owner.call("createFederationInvitation");
    expect(invited.status).toBe(200);
    const { code, link } = invited.json;
    expect(code).toMatch(/^MUTUA-LINK:/);
    expect(link).toMatchObject({ state: "invited", role: "inviter", waitingFor: "them", peer: null, terms: null });

    // A code whose fingerprint is not A's key's links nothing, on either side.
    const payload = JSON.parse(Buffer.from(code.slice("MUTUA-LINK:".length), "base64url").toString());
    const forged = "MUTUA-LINK:" + Buffer.from(JSON.stringify({ ...payload, f: "0".repeat(32) })).toString("base64url");
    const wrong = await b.owner.call("acceptFederationInvitation", { body: { code: forged, terms: TERMS_B } });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.message).toBe("The server at this address does not hold the key the invitation names: nothing was linked.");
    expect(await linkRows(b)).toHaveLength(0);
    expect((await links(a))[0]).toMatchObject({ state: "invited" });

    // Before accepting, B's owner sees who invites, as A's server describes itself at the code's
    // address; a code naming another key is refused as such, before anything is accepted.
    const forgedLook = await b.owner.call("previewFederationInvitation", { body: { code: forged } });
    expect(forgedLook.status).toBe(400);
    expect(forgedLook.json.error.message).toBe("The server at this address does not hold the key the invitation names: nothing was linked.");
    const look = await b.owner.call("previewFederationInvitation", { body: { code } });
    expect(look.status).toBe(200);
    expect(look.json).toEqual({
      name: "Association A",
      url: a.url,
      currencyName: "AAA",
      currencySymbol: "AAA",
      publicKey: described.publicKey,
      fingerprint: described.fingerprint,
    });
    // Looking records nothing, on either side.
    expect(await linkRows(b)).toHaveLength(0);
    expect((await links(a))[0]).toMatchObject({ state: "invited" });
    expect(await auditActions(a)).toEqual(["federation.invited"]);

    const accepted = await b.owner.call("acceptFederationInvitation", { body: { code, terms: TERMS_B } });
    expect(accepted.status).toBe(200);
    expect(accepted.json).toMatchObject({
      role: "invitee",
      state: "accepted",
      waitingFor: "them",
      peer: { name: "Association A", currencySymbol: "AAA", url: a.url, fingerprint: described.fingerprint },
      terms: TERMS_B,
    });
    const atA = (await links(a))[0]!;
    expect(atA).toMatchObject({
      state: "accepted",
      waitingFor: "us",
      peer: { name: "Association B", currencySymbol: "BBB", url: b.url },
      peerTerms: TERMS_B,
      terms: null,
    });

    const confirmed = await a.owner.call("confirmFederationLink", { params: { linkId: atA.id }, body: { terms: TERMS_A } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.json).toMatchObject({ state: "active", waitingFor: null, terms: TERMS_A, peerTerms: TERMS_B, ratesAgree: true });
    expect((await links(b))[0]).toMatchObject({ state: "active", waitingFor: null, terms: TERMS_B, peerTerms: TERMS_A, ratesAgree: true });

    expect(await auditActions(a)).toEqual(["federation.invited", "federation.peer_accepted", "federation.confirmed"]);
    expect(await auditActions(b)).toEqual(["federation.accepted", "federation.peer_confirmed"]);

    // The same code again: the invitation is spent.
    const again = await b.owner.call("acceptFederationInvitation", { body: { code, terms: TERMS_B } });
    expect(again.status).toBe(409);
    // Looked at again, it names an association already linked.
    const linked = await b.owner.call("previewFederationInvitation", { body: { code } });
    expect(linked.status).toBe(409);
    expect(linked.json.error.message).toBe("This association is already linked with that one.");
  });

  it("a change of terms is told to the other side; rates that differ are shown as such", async () => {
    const [atB] = await links(b);
    const changed = await b.owner.call("setFederationLinkTerms", { params: { linkId: atB!.id }, body: { terms: { ...TERMS_B, theirValue: "1.1" } } });
    expect(changed.status).toBe(200);
    expect(changed.json.ratesAgree).toBe(false);
    // Received at once: nothing left to send.
    expect(changed.json.termsPending).toBe(false);
    expect((await links(a))[0]).toMatchObject({ peerTerms: { ...TERMS_B, theirValue: "1.1" }, ratesAgree: false });
    expect((await b.owner.call("setFederationLinkTerms", { params: { linkId: atB!.id }, body: { terms: TERMS_B } })).json.ratesAgree).toBe(true);
    expect(await auditActions(a)).toContain("federation.peer_terms_changed");
    expect(await auditActions(b)).toContain("federation.terms_changed");
  });

  it("the audit log names the other association as who took its steps, and the owner as who took this side's", async () => {
    // The audit log is the administrators' (both validation rights), who read it for the owners.
    const administrator = async (s: Side) =>
      new Api(s.url, await memberToken(s.db, (await seedMember(s.db, { canValidateAccounts: true, canValidateCredits: true })).id));
    const federationLog = async (s: Side) => {
      const log = await (await administrator(s)).call("listAuditLog", { query: { kind: "federation", limit: 100 } });
      expect(log.status).toBe(200);
      return log.json.items.map((e) => ({ action: e.action, actor: e.actor, actorAssociation: e.actorAssociation })).reverse();
    };
    const owner = (association: string) => ({ actor: expect.stringMatching(new RegExp(`^Owner of ${association}`)), actorAssociation: null });
    expect((await federationLog(a)).slice(0, 3)).toEqual([
      { action: "federation.invited", ...owner("Association A") },
      { action: "federation.peer_accepted", actor: null, actorAssociation: "Association B" },
      { action: "federation.confirmed", ...owner("Association A") },
    ]);
    expect(await federationLog(a)).toContainEqual({ action: "federation.peer_terms_changed", actor: null, actorAssociation: "Association B" });
    expect((await federationLog(b)).slice(0, 2)).toEqual([
      { action: "federation.accepted", ...owner("Association B") },
      { action: "federation.peer_confirmed", actor: null, actorAssociation: "Association A" },
    ]);
  });
});

describe("withdrawing an invitation", () => {
  it("an invitation nobody answered is withdrawn: its code opens nothing; an active link is not withdrawn", async () => {
    const { code, link } = (await a.owner.call("createFederationInvitation")).json;
    const withdrawn = await a.owner.call("withdrawFederationInvitation", { params: { linkId: link.id } });
    expect(withdrawn.status).toBe(200);
    expect((await links(a)).map((l) => l.id)).not.toContain(link.id);
    expect((await auditActions(a)).slice(-2)).toEqual(["federation.invited", "federation.invitation_withdrawn"]);
    // A server answering it late (its own key, the code's secret): refused, nothing recorded.
    const { s: secret } = JSON.parse(Buffer.from(code.slice("MUTUA-LINK:".length), "base64url").toString()) as { s: string };
    const late = strangerKey();
    const server = { protocol: "mutua-federation/1", name: "Late", url: "https://late.example", currencyName: "L", currencySymbol: "L" };
    const body = { secret, server: { ...server, publicKey: late.keyId, fingerprint: late.fingerprint }, terms: TERMS_B };
    expect((await signedCall(a, late, "peerAcceptLink", body)).status).toBe(409);
    expect(await linkRows(a)).toHaveLength(1);
    const [active] = await links(a);
    expect((await a.owner.call("withdrawFederationInvitation", { params: { linkId: active!.id } })).status).toBe(409);
    expect((await a.owner.call("withdrawFederationInvitation", { params: { linkId: link.id } })).status).toBe(404);
  });
});

describe("the servers' messages", () => {
  const newTerms: FederationTerms = { ourValue: "9", theirValue: "9", trustLimit: "999999.00", enabled: false };

  /** Each attack must leave A's record of B's terms as it was. */
  async function unchanged() {
    expect((await links(a))[0]).toMatchObject({ peerTerms: TERMS_B });
  }

  it("a message signed by B's key is heard (the control for the attacks below)", async () => {
    const kb = await federationKey(b.db);
    const ok = await signedCall(a, kb, "peerLinkTerms", { terms: TERMS_B, version: 1 });
    expect(ok.status).toBe(200);
    await unchanged();
  });

  it("refuses a replayed message: the same signed request twice is heard once", async () => {
    const kb = await federationKey(b.db);
    const route = routes.peerLinkTerms;
    const text = JSON.stringify({ terms: TERMS_B, version: 1 });
    const { headers } = await signRequest(kb, route.method, `${a.url}${route.path}`, text);
    expect((await fetch(`${a.url}${route.path}`, { method: "POST", headers, body: text })).status).toBe(200);
    // Replayed as it was, then with the terms changed under the same signature.
    expect((await fetch(`${a.url}${route.path}`, { method: "POST", headers, body: text })).status).toBe(401);
    expect((await fetch(`${a.url}${route.path}`, { method: "POST", headers, body: JSON.stringify({ terms: newTerms, version: 99 }) })).status).toBe(401);
    await unchanged();
  });

  it("refuses a forged message: another body under B's signature, a signature altered, none at all", async () => {
    const kb = await federationKey(b.db);
    const body = JSON.stringify({ terms: newTerms, version: 99 });
    expect((await signedCall(a, kb, "peerLinkTerms", { terms: TERMS_B, version: 1 }, { bodyText: body })).status).toBe(401);
    const flipped = await signedCall(
      a,
      kb,
      "peerLinkTerms",
      { terms: newTerms, version: 99 },
      {
        tamper: (h) => {
          const name = Object.keys(h).find((k) => k.toLowerCase() === "signature")!;
          const sig = /:([^:]+):/.exec(h[name]!)![1]!;
          const bytes = Buffer.from(sig, "base64");
          bytes[0]! ^= 1;
          h[name] = h[name]!.replace(sig, bytes.toString("base64"));
        },
      },
    );
    expect(flipped.status).toBe(401);
    const plain = await fetch(`${a.url}${routes.peerLinkTerms.path}`, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(plain.status).toBe(401);
    expect(((await plain.json()) as { error: { message: string } }).error.message).toBe("This message's signature was refused.");
    await unchanged();
  });

  it("refuses a message signed by a key it has no link with, even well signed", async () => {
    const stranger = strangerKey();
    expect((await signedCall(a, stranger, "peerLinkTerms", { terms: newTerms, version: 99 })).status).toBe(401);
    expect((await signedCall(a, stranger, "peerConfirmLink", { terms: newTerms })).status).toBe(401);
    await unchanged();
  });

  it("refuses a message B signed for another server, or an old one", async () => {
    const kb = await federationKey(b.db);
    // Signed for B's own address (as if B had sent it elsewhere), delivered to A.
    expect((await signedCall(a, kb, "peerLinkTerms", { terms: newTerms, version: 99 }, { url: `${b.url}${routes.peerLinkTerms.path}` })).status).toBe(401);
    // Made ten minutes ago (its `created` rewritten would be a forgery: it is signed then).
    const old = await signRequest(
      kb,
      "POST",
      `${a.url}${routes.peerLinkTerms.path}`,
      JSON.stringify({ terms: newTerms, version: 99 }),
      new Date(Date.now() - 600_000),
    );
    const res = await fetch(`${a.url}${routes.peerLinkTerms.path}`, {
      method: "POST",
      headers: old.headers,
      body: JSON.stringify({ terms: newTerms, version: 99 }),
    });
    expect(res.status).toBe(401);
    await unchanged();
  });

  it("answers signed: the answer names the request's nonce and is signed by the server's key", async () => {
    const kb = await federationKey(b.db);
    const ka = await federationKey(a.db);
    const res = await signedCall(a, kb, "peerLinkTerms", { terms: TERMS_B, version: 1 });
    expect(res.status).toBe(200);
    const route = routes.peerLinkTerms;
    const text = JSON.stringify({ terms: TERMS_B, version: 1 });
    const { headers, nonce } = await signRequest(kb, route.method, `${a.url}${route.path}`, text);
    const answer = await fetch(`${a.url}${route.path}`, { method: "POST", headers, body: text });
    const input = answer.headers.get("signature-input") ?? "";
    expect(input).toContain(`keyid="${ka.keyId}"`);
    expect(input).toContain(`nonce="${nonce}"`);
    expect(answer.headers.get("content-digest")).toMatch(/^sha-256=:/);
  });

  it("an acceptance sent again (its answer lost) is answered again, for the key that sent it and no other", async () => {
    const { code } = (await a.owner.call("createFederationInvitation")).json;
    const { s: secret } = JSON.parse(Buffer.from(code.slice("MUTUA-LINK:".length), "base64url").toString()) as { s: string };
    const c = strangerKey();
    const server = { protocol: "mutua-federation/1", name: "Association C", url: "https://c.example", currencyName: "C", currencySymbol: "CCC" };
    const body = { secret, server: { ...server, publicKey: c.keyId, fingerprint: c.fingerprint }, terms: TERMS_B };
    expect((await signedCall(a, c, "peerAcceptLink", body)).status).toBe(200);
    expect((await signedCall(a, c, "peerAcceptLink", body)).status).toBe(200);
    const d = strangerKey();
    const other = await signedCall(a, d, "peerAcceptLink", { ...body, server: { ...server, publicKey: d.keyId, fingerprint: d.fingerprint } });
    expect(other.status).toBe(409);
    const rows = await linkRows(a);
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.peer_name)).toEqual(["Association B", "Association C"]);
    // Heard twice from C, recorded once, and audited each time it was heard.
    expect((await auditActions(a)).slice(-3)).toEqual(["federation.invited", "federation.peer_accepted", "federation.peer_accepted"]);
  });

  it("an acceptance signed by a key other than the one it names is refused, and a spent secret opens nothing", async () => {
    const stranger = strangerKey();
    const server = { protocol: "mutua-federation/1", name: "Mallory", url: "https://mallory.example", currencyName: "M", currencySymbol: "M" };
    const kb = await federationKey(b.db);
    // Mallory presents B's key as hers: her signature is not B's.
    const claim = await signedCall(a, stranger, "peerAcceptLink", {
      secret: randomBytes(24).toString("base64url"),
      server: { ...server, publicKey: kb.keyId, fingerprint: kb.fingerprint },
      terms: newTerms,
    });
    expect(claim.status).toBe(403);
    // Her own key, with a secret of no invitation.
    const guess = await signedCall(a, stranger, "peerAcceptLink", {
      secret: randomBytes(24).toString("base64url"),
      server: { ...server, publicKey: stranger.keyId, fingerprint: stranger.fingerprint },
      terms: newTerms,
    });
    expect(guess.status).toBe(409);
    expect(await linkRows(a)).toHaveLength(2);
    await unchanged();
  });
});

describe("a quote for paying across the link", () => {
  let alice: Api;
  let bobWallet: string;
  let frozenWallet: string;

  beforeAll(async () => {
    const backend = await createBackend(b.db, { kind: "custodial", symbol: "BBB" });
    const bob = await seedMember(b.db, { firstName: "Bob", lastName: "Durand" });
    bobWallet = await openCustodialWallet(b.db, backend, bob.id, "active");
    const cold = await seedMember(b.db, { firstName: "Frida", lastName: "Frost" });
    frozenWallet = await openCustodialWallet(b.db, backend, cold.id, "active");
    await b.db.query("UPDATE wallets SET frozen_at = now(), frozen_reason = 'Checked by the board' WHERE id = $1", [frozenWallet]);
    const member = await seedMember(a.db, { firstName: "Alice", lastName: "Martin" });
    alice = new Api(a.url, await memberToken(a.db, member.id));
  });

  const quote = (walletId: string, amount = "12.50") => alice.call("quoteCrossPayment", { body: { server: b.url, walletId, amount } });

  it("names the payee and converts at the rate both sides count: 12.50 BBB is 10.00 AAA", async () => {
    const q = await quote(bobWallet);
    expect(q.status).toBe(200);
    expect(q.json).toEqual({
      association: "Association B",
      payee: { walletId: bobWallet, name: "Bob Durand" },
      amount: "12.50",
      currencySymbol: "BBB",
      payerAmount: "10.00",
      payerCurrencySymbol: "AAA",
      rate: "0.8",
    });
    // A third of a cent is no cent: 0.01 BBB is 0.01 AAA (0.008, rounded half to even).
    expect((await quote(bobWallet, "0.01")).json.payerAmount).toBe("0.01");
  });

  it("refuses a frozen or unknown payee, and a server it has no link with", async () => {
    const frozen = await quote(frozenWallet);
    expect(frozen.status).toBe(409);
    expect(frozen.json.error.message).toContain("This account is frozen.");
    const unknown = await quote("custodial:nobody-at-all");
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.message).toContain("This recipient does not exist in the other association.");
    const stranger = await alice.call("quoteCrossPayment", { body: { server: "https://nowhere.example", walletId: bobWallet, amount: "1.00" } });
    expect(stranger.status).toBe(404);
    expect(stranger.json.error.message).toBe("This association is not linked with yours: its members cannot be paid from here.");
  });

  it("refuses when the rate changed on the other side since this side last heard, and when the link is off", async () => {
    // B counts one to one now (its own terms and its record of A's), and A was not told.
    const before = await b.db.query("SELECT our_value_e4, their_value_e4, peer_our_value_e4, peer_their_value_e4 FROM federation_links");
    await b.db.query("UPDATE federation_links SET our_value_e4 = 10000, their_value_e4 = 10000, peer_our_value_e4 = 10000, peer_their_value_e4 = 10000");
    const changed = await quote(bobWallet);
    expect(changed.status).toBe(409);
    expect(changed.json.error.message).toBe("The rate changed since this amount was worked out: please look at the new amount.");
    const r = before.rows[0]!;
    await b.db.query("UPDATE federation_links SET our_value_e4 = $1, their_value_e4 = $2, peer_our_value_e4 = $3, peer_their_value_e4 = $4", [
      r.our_value_e4,
      r.their_value_e4,
      r.peer_our_value_e4,
      r.peer_their_value_e4,
    ]);
    expect((await quote(bobWallet)).status).toBe(200);

    // B's owner switches the link off: A hears it and refuses before asking; B refuses a question asked anyway.
    const [atB] = await links(b);
    expect((await b.owner.call("setFederationLinkTerms", { params: { linkId: atB!.id }, body: { terms: { ...TERMS_B, enabled: false } } })).status).toBe(200);
    const off = await quote(bobWallet);
    expect(off.status).toBe(409);
    expect(off.json.error.message).toBe("Payments between these two associations are switched off.");
    const asked = await signedCall(b, await federationKey(a.db), "peerQuote", { walletId: bobWallet, amount: "1.00" });
    expect(asked.status).toBe(409);
    expect((await b.owner.call("setFederationLinkTerms", { params: { linkId: atB!.id }, body: { terms: TERMS_B } })).status).toBe(200);
    expect((await quote(bobWallet)).status).toBe(200);
  });

  /** B's server misbehaving: its answers to A's quotes are what it chooses to sign. */
  async function bAnswersQuotes(status: number, body: unknown) {
    const kb = await federationKey(b.db);
    wire.wrap = async (request, send) => (request.url.endsWith(routes.peerQuote.path) ? signedAnswer(kb, request, status, body) : send(request));
  }
  const EVIL = "Your payment is blocked: call +33 1 23 45 67 89 or visit https://evil.example/refund";

  it("tells B's refusals in A's own words: a text of B's, free or under one of A's message ids, never reaches the member", async () => {
    await bAnswersQuotes(409, { error: { code: "state_conflict", message: EVIL, msgid: EVIL } });
    const free = await quote(bobWallet);
    expect(free.status).toBe(409);
    expect(free.json.error).toEqual({ code: "state_conflict", message: SM.federationPeerRefused, msgid: SM.federationPeerRefused });
    // One of A's own refusals, with B's words for its text and values: A's text.
    await bAnswersQuotes(409, { error: { code: "state_conflict", message: EVIL, msgid: SM.federationLinkOff, values: { reason: EVIL } } });
    const known = await quote(bobWallet);
    expect(known.status).toBe(409);
    expect(known.json.error).toEqual({ code: "state_conflict", message: SM.federationLinkOff, msgid: SM.federationLinkOff });
  });

  it("refuses a payee's name A would not take from its own members: 20,000 characters with a direction override, a hidden or control character, none", async () => {
    const answer = (name: string) => ({ payee: { walletId: bobWallet, name }, amount: "12.50", currencySymbol: "BBB", peerAmount: "10.00", rate: "0.8" });
    for (const name of ["Bob \u202E" + "x".repeat(20_000), "Bob Durand\u202Egnp.exe", "Bob Dur\u200Band", "Bob\u0007", "   "]) {
      await bAnswersQuotes(200, answer(name));
      const q = await quote(bobWallet);
      expect(q.status, JSON.stringify(name.slice(0, 20))).toBe(400);
      expect(q.json.error.message).toBe(SM.federationPeerName);
    }
    // A no-break space is a space, as in members' names; the symbol and the rate shown are A's own record, whatever B says of them.
    await bAnswersQuotes(200, { ...answer("Bob\u00A0Durand"), currencySymbol: "\u202EEVIL", rate: EVIL });
    const q = await quote(bobWallet);
    expect(q.status).toBe(200);
    expect(q.json).toMatchObject({ payee: { walletId: bobWallet, name: "Bob Durand" }, currencySymbol: "BBB", rate: "0.8" });
    // Another wallet than the one asked about: not this payee.
    await bAnswersQuotes(200, { ...answer("Bob Durand"), payee: { walletId: "custodial:someone-else", name: "Bob Durand" } });
    expect((await quote(bobWallet)).status).toBe(503);
  });
});

describe("linking again with a server at the same address", () => {
  it("a reinstalled B (a new key) linked again replaces the old link: one active link per address, and quotes go to the new one", async () => {
    const [old] = (await links(a)).filter((l) => l.state === "active" && l.peerUrl === b.url);
    expect(old).toBeDefined();
    const b2 = await reinstall(b, "Association B", "BBB");
    sides.push(b2);
    // b's server is stopped: its close in afterAll must not fail.
    b.server.close = async () => {};
    await linkSides(a, b2);
    const atA = (await links(a)).filter((l) => l.peerUrl === b.url);
    expect(atA.map((l) => [l.id === old!.id, l.state, l.waitingFor])).toEqual([
      [false, "active", null],
      [true, "replaced", null],
    ]);
    expect((await a.db.query("SELECT details FROM audit_log WHERE action = 'federation.confirmed' ORDER BY id DESC LIMIT 1")).rows[0].details).toMatchObject({
      replaces: [old!.id],
    });
    // The old link takes no new terms; the database holds one active link per address whatever the code does.
    expect((await a.owner.call("setFederationLinkTerms", { params: { linkId: old!.id }, body: { terms: TERMS_A } })).status).toBe(409);
    await expect(a.db.query("UPDATE federation_links SET state = 'active' WHERE public_id = $1", [old!.id])).rejects.toThrow(
      /federation_links_one_active_per_address/,
    );

    const backend = await createBackend(b2.db, { kind: "custodial", symbol: "BBB" });
    const carla = await seedMember(b2.db, { firstName: "Carla", lastName: "Nouveau" });
    const wallet = await openCustodialWallet(b2.db, backend, carla.id, "active");
    const payer = await seedMember(a.db, { firstName: "Paul", lastName: "Payeur" });
    const paul = new Api(a.url, await memberToken(a.db, payer.id));
    for (let i = 0; i < 5; i++) {
      const q = await paul.call("quoteCrossPayment", { body: { server: b.url, walletId: wallet, amount: "12.50" } });
      expect(q.status).toBe(200);
      expect(q.json).toMatchObject({ payee: { name: "Carla Nouveau" }, payerAmount: "10.00" });
    }
  });
});
