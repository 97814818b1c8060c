import { sign } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { keyRotationProofText, routes, SM, type FederationTerms } from "@mutua/domain";
import { tellKey } from "../src/services/federation/key-rotation";
import { tellTerms } from "../src/services/federation/link-terms";
import type { PeerRequest } from "../src/services/federation/peer-net";
import { federationKey, type ServerKey } from "../src/services/federation/server-key";
import { signRequest } from "../src/services/federation/signed-messages";
import { ledgerViolations } from "../src/services/ledger/ledger";
import { openCustodialWallet } from "../src/services/wallets/wallets";
import { linkSides, links, netOf, restart, side, signedCall, sidesOfThisFile, stop, strangerKey, TERMS_A, wire, type Side } from "./federation-sides";
import { Api, createBackend, memberToken, seedMember, topUp } from "./helpers";

/**
 * A server's new key, told to its linked server until acknowledged, and a leaked key revoked by
 * the owners of both sides (docs/federation.md "Key rotation and revocation"): until told, the
 * linked server still understands the old key; once told, it refuses it; a key's holder who
 * announced a key of theirs is shut out when the other side's owners replace the key with the
 * one read aloud.
 */
const sides = sidesOfThisFile();
let a: Side;
let b: Side;
let alice: Api;
let aliceWallet: string;
let bobApi: Api;
let bobWallet: string;
let carolWallet: string;
let keyCount = 0;
const newKey = () => `keys-${process.pid}-${++keyCount}`;

// Neither side's due work runs by itself: this test runs A's step when it says so.
const QUIET = { DUE_POLL_SECONDS: "3600" };

beforeAll(async () => {
  [a, b] = await Promise.all([side("Association A", "AAA", QUIET), side("Association B", "BBB", QUIET)]);
  sides.push(a, b);
  await linkSides(a, b);
  const backendA = await createBackend(a.db, { kind: "custodial", symbol: "AAA" });
  const aliceMember = await seedMember(a.db, { firstName: "Alice", lastName: "Martin" });
  aliceWallet = await openCustodialWallet(a.db, backendA, aliceMember.id, "active");
  await topUp(a.db, aliceWallet, "100.00");
  alice = new Api(a.url, await memberToken(a.db, aliceMember.id));
  carolWallet = await openCustodialWallet(a.db, backendA, (await seedMember(a.db, { firstName: "Carol", lastName: "Petit" })).id, "active");
  const backendB = await createBackend(b.db, { kind: "custodial", symbol: "BBB" });
  const bob = await seedMember(b.db, { firstName: "Bob", lastName: "Durand" });
  bobWallet = await openCustodialWallet(b.db, backendB, bob.id, "active");
  await topUp(b.db, bobWallet, "100.00");
  bobApi = new Api(b.url, await memberToken(b.db, bob.id));
});

const rotate = (revoke = false) => a.owner.call("rotateFederationKey", { body: { revoke } });
const keysOf = async (s: Side) => (await s.owner.call("getFederationKeys")).json;
/** The fingerprint of the key B's link holds for A. */
const heldByB = async () => (await links(b))[0]!.peer!.fingerprint;
const keyOutbox = async () =>
  (await a.db.query<{ attempts: number; last_error: string | null }>("SELECT attempts, last_error FROM federation_outbox WHERE kind = 'key'")).rows;
/** A's key news told now (the due work's step, its wait cut short), until none is due. */
async function tellKeysNow(): Promise<void> {
  await a.db.query("UPDATE federation_outbox SET next_try_at = now() WHERE kind = 'key'");
  for (let i = 0; i < 5 && (await tellKey(netOf(a), a.db, "due")); i++);
}
const audited = async (s: Side, action: string) =>
  (await s.db.query<{ details: Record<string, unknown> }>("SELECT details FROM audit_log WHERE action = $1 ORDER BY id", [action])).rows.map((r) => r.details);
/** A's keys as stored: their state, and whether their private half is still kept. */
const storedKeys = async () =>
  (await a.db.query<{ state: string; kept: boolean }>("SELECT state, private_key IS NOT NULL AS kept FROM federation_keys ORDER BY id")).rows;

/** The `keyid` of a signed request, as it left. */
const keyIdOf = (r: PeerRequest) => /keyid="([^"]+)"/.exec(Object.entries(r.headers).find(([k]) => k.toLowerCase() === "signature-input")![1])![1];
/** The requests A's server sends B, as they leave. */
function watchA(): PeerRequest[] {
  const sent: PeerRequest[] = [];
  wire.wrap = async (request, send) => {
    if (request.url.startsWith(b.url)) sent.push(request);
    return send(request);
  };
  return sent;
}

const payAB = (amount: string, payerAmount: string) =>
  alice.call("payAcross", { body: { from: aliceWallet, server: b.url, walletId: bobWallet, amount, payerAmount, key: newKey() } });
const payBA = (amount: string, payerAmount: string) =>
  bobApi.call("payAcross", { body: { from: bobWallet, server: a.url, walletId: carolWallet, amount, payerAmount, key: newKey() } });

async function clearingBalance(s: Side): Promise<bigint> {
  const { rows } = await s.db.query<{ total: string | null }>(
    "SELECT sum(a.balance)::text AS total FROM accounts a JOIN wallets w ON w.id = a.wallet_id WHERE w.role = 'clearing'",
  );
  return BigInt(rows[0]!.total ?? "0");
}
const held = async (s: Side) => BigInt((await s.db.query<{ held_cents: bigint }>("SELECT held_cents FROM federation_links")).rows[0]!.held_cents);

/** Payments both ways, made on both sides; both ledgers whole and each side's clearing balance what the other holds. */
async function paymentsWork() {
  const ab = await payAB("2.50", "2.00");
  expect(ab.status, JSON.stringify(ab.json)).toBe(200);
  expect(ab.json.state).toBe("committed");
  const ba = await payBA("2.00", "2.50");
  expect(ba.status, JSON.stringify(ba.json)).toBe(200);
  expect(ba.json.state).toBe("committed");
  expect(await ledgerViolations(a.db)).toEqual([]);
  expect(await ledgerViolations(b.db)).toEqual([]);
  expect(await clearingBalance(a)).toBe(await held(b));
  expect(await clearingBalance(b)).toBe(await held(a));
}

/** A changes its terms (its trust limit): received by B, which records them. */
async function termsWork(limit: string) {
  const terms: FederationTerms = { ...TERMS_A, trustLimit: limit };
  const [atA] = await links(a);
  const changed = await a.owner.call("setFederationLinkTerms", { params: { linkId: atA!.id }, body: { terms } });
  expect(changed.json).toMatchObject({ terms, termsPending: false });
  expect((await links(b))[0]).toMatchObject({ peerTerms: terms });
}

/** Anybody's proof of possession: `holder`'s signature over the words of a rotation to it, for `receiver`, announced by `oldKey`. */
const proofBy = (holder: ServerKey, receiver: string, oldKey: string, newKey = holder.keyId) =>
  sign(null, Buffer.from(keyRotationProofText({ receiver, oldKey, newKey })), holder.privateKey).toString("base64url");

/** A message to B in A's name, signed by `key`: B records terms numbered `version` if it takes it. */
const termsSignedBy = (key: ServerKey, version: number) => signedCall(b, key, "peerLinkTerms", { terms: { ...TERMS_A, trustLimit: "1.00" }, version });

describe("a new key, told to the linked server", () => {
  it("is A's at once, told to B and acknowledged: payments and terms work with it, and B refuses the old one from then on", async () => {
    const old = await federationKey(a.db);
    const sent = watchA();
    const rotated = await rotate();
    expect(rotated.status).toBe(200);
    const fresh = await federationKey(a.db);
    expect(fresh.fingerprint).not.toBe(old.fingerprint);
    expect(rotated.json.keys).toMatchObject([
      { fingerprint: fresh.fingerprint, state: "current", retiredAt: null, revokedAt: null },
      { fingerprint: old.fingerprint, state: "retired", revokedAt: null },
    ]);
    // Told at once, signed by the key B knew, carrying the new one; B acknowledged.
    const told = sent.filter((r) => r.url.endsWith(routes.peerKeyRotated.path));
    expect(told.map(keyIdOf)).toEqual([old.keyId]);
    expect(JSON.parse(told[0]!.body!)).toMatchObject({ publicKey: fresh.keyId });
    expect(rotated.json.links).toEqual([expect.objectContaining({ knownByThem: null })]);
    expect(await keyOutbox()).toEqual([]);
    // The well-known description shows the new key.
    const described = await (await fetch(`${a.url}${routes.federationServer.path}`)).json();
    expect(described).toMatchObject({ publicKey: fresh.keyId, fingerprint: fresh.fingerprint });
    // B holds it, says so on the link, and in its audit log with both fingerprints.
    expect(await heldByB()).toBe(fresh.fingerprint);
    expect((await keysOf(b)).links).toEqual([
      expect.objectContaining({ peerKeyChange: { previousFingerprint: old.fingerprint, at: expect.any(String), by: "peer" } }),
    ]);
    expect(await audited(b, "federation.peer_key_rotated")).toEqual([{ peer: "Association A", before: old.fingerprint, after: fresh.fingerprint }]);
    expect(await audited(a, "federation.key_rotated")).toEqual([{ before: old.fingerprint, after: fresh.fingerprint, links: 1 }]);
    // Every live link told: the old key's private half is not kept any more.
    expect(await storedKeys()).toEqual([
      { state: "retired", kept: false },
      { state: "current", kept: true },
    ]);

    sent.length = 0;
    await paymentsWork();
    await termsWork("180.00");
    expect(new Set(sent.map(keyIdOf))).toEqual(new Set([fresh.keyId]));

    // The old key signs nothing at B any more: terms, or another rotation in its name.
    const before = (await links(b))[0]!.peerTerms;
    expect((await termsSignedBy(old, 999)).status).toBe(401);
    const stranger = strangerKey();
    expect((await announceTo(old, { publicKey: stranger.keyId, proof: proofBy(stranger, b.url, old.keyId) })).status).toBe(401);
    expect((await links(b))[0]!.peerTerms).toEqual(before);
    expect(await heldByB()).toBe(fresh.fingerprint);
  });

  it("B down at the rotation: A signs to B with the key B knows until the due work told it, then B refuses that key", async () => {
    const known = await federationKey(a.db);
    await stop(b);
    const first = await rotate();
    expect(first.status).toBe(200);
    expect(first.json.links).toEqual([expect.objectContaining({ knownByThem: known.fingerprint })]);
    expect(await keyOutbox()).toEqual([{ attempts: 1, last_error: SM.federationPeerUnreachable }]);
    // A second new key before B heard of the first: B is told the newest, still by the key it knows.
    expect((await rotate()).json.links).toEqual([expect.objectContaining({ knownByThem: known.fingerprint })]);
    expect(await keyOutbox()).toHaveLength(1);
    const newest = await federationKey(a.db);
    await restart(b, QUIET);

    // Until told, A's messages to B are signed by the key B knows (terms, a payment's), and so are
    // A's answers to B's (B's payment to Carol): B accepts them all.
    const sent = watchA();
    await termsWork("170.00");
    await paymentsWork();
    expect(new Set(sent.map(keyIdOf))).toEqual(new Set([known.keyId]));
    expect(await heldByB()).toBe(known.fingerprint);

    // The due work tells B: the newest key, announced by the key B knew.
    sent.length = 0;
    await tellKeysNow();
    expect(sent.map((r) => [r.url.slice(b.url.length), keyIdOf(r)])).toEqual([[routes.peerKeyRotated.path, known.keyId]]);
    expect(await heldByB()).toBe(newest.fingerprint);
    expect(await keyOutbox()).toEqual([]);
    expect((await keysOf(a)).links).toEqual([expect.objectContaining({ knownByThem: null })]);
    expect((await audited(b, "federation.peer_key_rotated")).at(-1)).toEqual({ peer: "Association A", before: known.fingerprint, after: newest.fingerprint });
    // Neither replaced key is kept: every live link knows the newest.
    expect((await storedKeys()).map((k) => k.kept)).toEqual([false, false, false, true]);

    // Acknowledged: the key B knew is refused there now; the newest works.
    expect((await termsSignedBy(known, 1000)).status).toBe(401);
    sent.length = 0;
    await paymentsWork();
    expect(new Set(sent.map(keyIdOf))).toEqual(new Set([newest.keyId]));
  });

  it("a key made again while B is being told: B is told that one too, by the key it was just told", async () => {
    const told = await federationKey(a.db);
    await stop(b);
    await rotate();
    const middle = await federationKey(a.db);
    await restart(b, QUIET);
    // While the announcement of `middle` is on its way, the owners make another key.
    let madeMeanwhile: Promise<unknown> | null = null;
    wire.wrap = async (request, send) => {
      if (request.url.endsWith(routes.peerKeyRotated.path) && !madeMeanwhile) {
        madeMeanwhile = rotate();
        await madeMeanwhile;
      }
      return send(request);
    };
    await a.db.query("UPDATE federation_outbox SET next_try_at = now() WHERE kind = 'key'");
    expect(await tellKey(netOf(a), a.db, "due")).toBe(true);
    const last = await federationKey(a.db);
    expect(last.fingerprint).not.toBe(middle.fingerprint);
    // B holds `middle`, and A knows B was told that one, not the last: due again at once.
    expect(await heldByB()).toBe(middle.fingerprint);
    expect((await keysOf(a)).links).toEqual([expect.objectContaining({ knownByThem: middle.fingerprint })]);
    const sent = watchA();
    // Told by this call, or by A's own due work at the same moment (woken by the server's events
    // whatever its poll), which then holds the row this call would take: either way, B ends up
    // holding the last key, told by the one it knew.
    await tellKey(netOf(a), a.db, "due");
    await expect.poll(() => heldByB()).toBe(last.fingerprint);
    expect(sent.map(keyIdOf).every((k) => k === middle.keyId)).toBe(true);
    expect((await termsSignedBy(told, 1001)).status).toBe(401);
    expect((await termsSignedBy(middle, 1002)).status).toBe(401);
    await paymentsWork();
  });

  it("two new keys made at once: one current key, B told the last", async () => {
    const [one, two] = await Promise.all([rotate(), rotate()]);
    expect([one.status, two.status]).toEqual([200, 200]);
    await tellKeysNow();
    const current = (await storedKeys()).filter((k) => k.state === "current");
    expect(current).toEqual([{ state: "current", kept: true }]);
    expect(await heldByB()).toBe((await federationKey(a.db)).fingerprint);
    expect(await keyOutbox()).toEqual([]);
    await paymentsWork();
  });
});

describe("an announcement B refuses", () => {
  it("without a proof of possession, or with a wrong one: nothing changed", async () => {
    const key = await federationKey(a.db);
    const next = strangerKey();
    const auditBefore = await audited(b, "federation.peer_key_rotated");
    const announce = (body: unknown) => announceTo(key, body);
    // Missing: bad input.
    expect((await announce({ publicKey: next.keyId })).status).toBe(400);
    const refusals = [
      // Signed by another key than the new one.
      proofBy(strangerKey(), b.url, key.keyId, next.keyId),
      // For another server.
      proofBy(next, a.url, key.keyId),
      // Naming another old key.
      proofBy(next, b.url, strangerKey().keyId),
      // No signature at all.
      "A".repeat(86),
    ];
    for (const proof of refusals) {
      const res = await announce({ publicKey: next.keyId, proof });
      expect(res.status).toBe(400);
      expect(res.json.error.msgid).toBe(SM.federationKeyProof);
    }
    // Unsigned: refused before anything is read.
    const unsigned = await fetch(`${b.url}${routes.peerKeyRotated.path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ publicKey: next.keyId, proof: proofBy(next, b.url, key.keyId) }),
    });
    expect(unsigned.status).toBe(401);
    expect(await heldByB()).toBe(key.fingerprint);
    expect(await audited(b, "federation.peer_key_rotated")).toEqual(auditBefore);
    // The same announcement with its proof right is taken: the control.
    const control = await strangerKeyTakenAndGivenBack(key);
    expect(control).toBe(200);
  });
});

/** A key announced to B in A's name, signed by `key`: B's answer. */
async function announceTo(key: ServerKey, body: unknown): Promise<{ status: number; json: { error: { msgid: string } } }> {
  const url = `${b.url}${routes.peerKeyRotated.path}`;
  const text = JSON.stringify(body);
  const { headers } = await signRequest(key, "POST", url, text);
  const res = await fetch(url, { method: "POST", headers, body: text });
  return { status: res.status, json: await res.json() };
}

/**
 * A proper announcement to a stranger's key is taken by B; B is then put back on A's key as A's
 * own announcement would (signed by the stranger's key, proved by A's): what a later test expects.
 */
async function strangerKeyTakenAndGivenBack(key: ServerKey): Promise<number> {
  const next = strangerKey();
  const { status } = await announceTo(key, { publicKey: next.keyId, proof: proofBy(next, b.url, key.keyId) });
  expect(await heldByB()).toBe(next.fingerprint);
  const back = await announceTo(next, { publicKey: key.keyId, proof: proofBy(key, b.url, next.keyId) });
  expect(back.status).toBe(200);
  expect(await heldByB()).toBe(key.fingerprint);
  return status;
}

describe("a leaked key, revoked by the owners of both sides", () => {
  it("the key's holder announces a key of theirs to B; A's owners revoke, B's replace A's key with the one read aloud: the holder is shut out, A's new key works", async () => {
    await paymentsWork();
    // A dump of A's database: its current key, private half and all.
    const leaked = await federationKey(a.db);
    const attacker = strangerKey();
    const attack = await announceTo(leaked, { publicKey: attacker.keyId, proof: proofBy(attacker, b.url, leaked.keyId) });
    // B cannot tell the holder from A: it holds the key, and the proof is right.
    expect(attack.status).toBe(200);
    expect(await heldByB()).toBe(attacker.fingerprint);
    // The holder now speaks as A: it switches the link off in A's name, numbered far ahead.
    expect((await signedCall(b, attacker, "peerLinkTerms", { terms: { ...TERMS_A, enabled: false }, version: 5000 })).status).toBe(200);
    expect((await links(b))[0]!.peerTerms).toMatchObject({ enabled: false });
    // A itself is shut out at B: its next change is not received.
    const [atA] = await links(a);
    const off = await a.owner.call("setFederationLinkTerms", { params: { linkId: atA!.id }, body: { terms: { ...TERMS_A, trustLimit: "160.00" } } });
    expect(off.json).toMatchObject({ termsPending: true });

    // A's owners: a new key, every older one revoked (their private halves erased at once).
    const revoked = await rotate(true);
    expect(revoked.status).toBe(200);
    const real = await federationKey(a.db);
    expect(revoked.json.keys[0]).toMatchObject({ fingerprint: real.fingerprint, state: "current" });
    expect(revoked.json.keys.slice(1).every((k: { state: string; revokedAt: string | null }) => k.state === "revoked" && k.revokedAt)).toBe(true);
    expect((await storedKeys()).filter((k) => k.kept)).toEqual([{ state: "current", kept: true }]);
    expect((await audited(a, "federation.key_revoked"))[0]).toMatchObject({ before: leaked.fingerprint, after: real.fingerprint });
    // Its announcement cannot reach B: signed by the new key, which B does not know (the holder's is B's now).
    expect(await keyOutbox()).toEqual([{ attempts: 1, last_error: SM.federationPeerUnverifiable }]);
    expect(await heldByB()).toBe(attacker.fingerprint);

    // B's owners, told aloud by A's: a fingerprint that is not the one at A's address is refused, nothing changed.
    const [atB] = await links(b);
    const replace = (fingerprint: string) => b.owner.call("replaceFederationPeerKey", { params: { linkId: atB!.id }, body: { fingerprint } });
    for (const wrong of [attacker.fingerprint, leaked.fingerprint]) {
      const refused = await replace(wrong);
      expect(refused.status).toBe(400);
      expect(refused.json.error.msgid).toBe(SM.federationFingerprintNotTheirs);
    }
    const garbled = await replace("12 34 not a fingerprint");
    expect(garbled.status).toBe(400);
    expect(garbled.json.error.fields).toEqual({ fingerprint: { msgid: SM.federationFingerprintTyped } });
    expect(await heldByB()).toBe(attacker.fingerprint);
    expect(await audited(b, "federation.peer_key_replaced")).toEqual([]);

    // The right one, as it is read aloud: in groups, in capitals.
    const aloud = real.fingerprint.toUpperCase().replace(/(.{4})(?!$)/g, "$1 ");
    const replaced = await replace(aloud);
    expect(replaced.status, JSON.stringify(replaced.json)).toBe(200);
    expect(replaced.json.peer?.fingerprint).toBe(real.fingerprint);
    expect((await keysOf(b)).links).toEqual([
      expect.objectContaining({ peerKeyChange: { previousFingerprint: attacker.fingerprint, at: expect.any(String), by: "owners" } }),
    ]);
    const entry = (await audited(b, "federation.peer_key_replaced"))[0]!;
    expect(entry).toMatchObject({ before: attacker.fingerprint, after: real.fingerprint });
    expect(entry.revoked).toEqual(expect.arrayContaining([attacker.fingerprint, leaked.fingerprint]));
    // Tapped again: nothing more to revoke, nothing recorded twice.
    expect((await replace(real.fingerprint)).status).toBe(200);
    expect(await audited(b, "federation.peer_key_replaced")).toHaveLength(1);

    // Shut out: the holder's key, the leaked one, and any rotation either announces.
    expect((await termsSignedBy(attacker, 6000)).status).toBe(401);
    expect((await termsSignedBy(leaked, 6001)).status).toBe(401);
    const another = strangerKey();
    for (const by of [leaked, attacker])
      expect((await announceTo(by, { publicKey: another.keyId, proof: proofBy(another, b.url, by.keyId) })).status).toBe(401);
    // Nor is a revoked key ever taken back as A's, even announced by A's own new key.
    const back = await announceTo(real, { publicKey: leaked.keyId, proof: proofBy(leaked, b.url, real.keyId) });
    expect(back.status).toBe(409);
    expect(back.json.error.msgid).toBe(SM.federationKeyRevoked);
    expect(await heldByB()).toBe(real.fingerprint);

    // A's real key works: its announcement is acknowledged (B holds it already), its terms, told
    // again since the revocation, outrank what the holder said in its name; payments cross again.
    await tellKeysNow();
    expect(await keyOutbox()).toEqual([]);
    expect((await keysOf(a)).links).toEqual([expect.objectContaining({ knownByThem: null })]);
    await a.db.query("UPDATE federation_outbox SET next_try_at = now() WHERE kind = 'terms'");
    expect(await tellTerms(netOf(a), a.db, "due")).toBe(true);
    expect((await links(a))[0]).toMatchObject({ termsPending: false });
    expect((await links(b))[0]).toMatchObject({ peerTerms: { ...TERMS_A, trustLimit: "160.00" }, ratesAgree: true });
    await paymentsWork();
    await termsWork("150.00");
  });
});
