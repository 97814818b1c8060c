import { sign, verify } from "node:crypto";
import { ErrorCode, keyRotationProofText, SM, typedFingerprint, type FederationKeys, type FederationKeyState, type FederationLink } from "@mutua/domain";
import { inTransaction, type Db, type Queryable, type Tx } from "../../db/pool";
import type { Settings } from "../../settings";
import { audit } from "../platform/audit";
import { invalid, Refusal } from "../platform/errors";
import { linkById, linkView, wrongState } from "./links";
import { callPeer, fetchPeerServer, peerBaseUrl } from "./peer-client";
import type { PeerNet } from "./peer-net";
import { tellOne, toTell, type Teller, type Which } from "./peer-outbox";
import { reachChanged } from "./reach-changed";
import { federationKey, fingerprintOf, keyOf, newKeyPair, publicKeyFromId, type StoredKey } from "./server-key";
import type { Signer } from "./signed-messages";

/**
 * A server's new key, and a leaked one replaced (docs/federation.md "Key rotation and
 * revocation").
 *
 * Rotation: an owner makes a new key; it is this server's current key at once (its well-known
 * description, new links, every instance, since all read it from PostgreSQL). Each live link keeps
 * the key its other side knows this server by (`federation_links.our_key_id`) until that side
 * acknowledged the new one: this server signs its messages to that side, and its answers, with
 * that key meanwhile, so that it is understood throughout. The new key is told to each of them
 * until acknowledged (peer-outbox.ts, kind `key`): `peerKeyRotated`, signed by the key that side
 * knows, carrying the new key and its proof of possession (its signature over the receiver's
 * address and both keys). The receiver checks both and holds the new key from then on: the old
 * one signs nothing there any more. A retired key's private half is erased once every live link
 * acknowledged its successor.
 *
 * Revocation: a key that leaked (a database dump) lets its holder sign as this server, even
 * announce a rotation to a key of theirs. So the owners of both sides act: this side makes a new
 * key and revokes every older one (never used again, its private half erased at once) and tells
 * its terms again; the other side's owners, told aloud, replace the link's key with the one this
 * server's address holds now, checked against the fingerprint read to them (`replacePeerKey`):
 * every key that link held before, the leaked one and any its holder announced meanwhile, is
 * revoked there, and the next terms told are recorded whatever number the key's holder gave its own.
 */

/** The links whose other side talks with this server: accepted (the confirmation to come) or active. */
const LIVE = ["accepted", "active"];

const proofRefused = () => new Refusal(ErrorCode.validation, { id: SM.federationKeyProof });
const revokedKey = () => new Refusal(ErrorCode.stateConflict, { id: SM.federationKeyRevoked });

/** This server's keys, newest first, and where each link stands with keys. */
export async function keysView(db: Queryable): Promise<FederationKeys> {
  await federationKey(db);
  const keys = await db.query<{ public_key: Buffer; state: FederationKeyState; created_at: Date; retired_at: Date | null; revoked_at: Date | null }>(
    "SELECT public_key, state, created_at, retired_at, revoked_at FROM federation_keys ORDER BY id DESC",
  );
  const links = await db.query<{
    public_id: string;
    known: Buffer | null;
    previous: Buffer | null;
    replaced_at: Date | null;
    replaced_by: "peer" | "owners" | null;
  }>(
    `SELECT l.public_id, CASE WHEN l.state = ANY($1) THEN k.public_key END AS known, p.public_key AS previous, p.replaced_at, p.replaced_by
       FROM federation_links l
       LEFT JOIN federation_keys k ON k.id = l.our_key_id
       LEFT JOIN LATERAL (SELECT public_key, replaced_at, replaced_by FROM federation_peer_keys WHERE link_id = l.id ORDER BY replaced_at DESC LIMIT 1) p ON true
      WHERE l.peer_key IS NOT NULL ORDER BY l.id DESC`,
    [LIVE],
  );
  return {
    keys: keys.rows.map((k) => ({
      fingerprint: fingerprintOf(k.public_key),
      state: k.state,
      createdAt: k.created_at.toISOString(),
      retiredAt: k.retired_at?.toISOString() ?? null,
      revokedAt: k.revoked_at?.toISOString() ?? null,
    })),
    links: links.rows.map((l) => ({
      linkId: l.public_id,
      knownByThem: l.known && fingerprintOf(l.known),
      peerKeyChange: l.previous && { previousFingerprint: fingerprintOf(l.previous), at: l.replaced_at!.toISOString(), by: l.replaced_by! },
    })),
  };
}

/**
 * An owner gives this server a new key: current at once, the old one retired (or, with `revoke`,
 * every older key revoked: the owners said they leaked). Each live link keeps the key its other
 * side knows this server by, and is told the new one, at once and then until it acknowledges.
 * Two rotations at once are one after the other (an advisory lock).
 */
export async function rotateKey(net: PeerNet, db: Db, memberId: bigint, revoke: boolean): Promise<FederationKeys> {
  await federationKey(db);
  const toldTo = await inTransaction(db, async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('mutua:federation-keys'))");
    // The current key's row is locked before any link is read: a teller recording that a link
    // acknowledged it (under a share lock of the same row) comes wholly before or after.
    const { rows } = await tx.query<{ id: string; public_key: Buffer; private_key: Buffer }>(
      "SELECT id, public_key, private_key FROM federation_keys WHERE state = 'current' FOR UPDATE",
    );
    const old = keyOf(rows[0]!);
    // The links that know this server by the current key keep knowing it by that one until told.
    await tx.query("UPDATE federation_links SET our_key_id = $1 WHERE our_key_id IS NULL AND state = ANY($2)", [old.id, LIVE]);
    const revoked = revoke
      ? (
          await tx.query<{ public_key: Buffer }>(
            `UPDATE federation_keys SET state = 'revoked', private_key = NULL, revoked_at = now(), retired_at = coalesce(retired_at, now())
              WHERE state <> 'revoked' RETURNING public_key`,
          )
        ).rows.map((r) => fingerprintOf(r.public_key))
      : [];
    if (!revoke) await tx.query("UPDATE federation_keys SET state = 'retired', retired_at = now() WHERE id = $1", [old.id]);
    const pair = newKeyPair();
    await tx.query("INSERT INTO federation_keys (public_key, private_key, state) VALUES ($1, $2, 'current')", [pair.publicKey, pair.privateKey]);
    const { rows: links } = await tx.query<{ id: string }>("SELECT id FROM federation_links WHERE our_key_id IS NOT NULL AND state = ANY($1) ORDER BY id", [
      LIVE,
    ]);
    for (const l of links) await toTell(tx, l.id, "key");
    if (revoke) {
      // The leaked key's holder may have told the other sides terms in this server's name: this
      // server's own are told again, received once the other side's owners replaced the key.
      const { rows: active } = await tx.query<{ id: string }>("UPDATE federation_links SET terms_told_version = 0 WHERE state = 'active' RETURNING id");
      for (const l of active) await toTell(tx, l.id, "terms");
    }
    await forgetToldKeys(tx);
    await audit(tx, memberId, revoke ? "federation.key_revoked" : "federation.key_rotated", "federation:key", {
      before: old.fingerprint,
      after: fingerprintOf(pair.publicKey),
      ...(revoke ? { revoked } : {}),
      links: links.length,
    });
    return links.map((l) => l.id);
  });
  // Told at once, a few links at a time: a server that does not answer is told again by the due work.
  for (let i = 0; i < toldTo.length; i += TOLD_AT_ONCE)
    await Promise.all(toldTo.slice(i, i + TOLD_AT_ONCE).map((linkId) => tellKey(net, db, { linkId, kind: "key" })));
  return keysView(db);
}

const TOLD_AT_ONCE = 4;

/**
 * Erases the private half of every retired key that no live link can know this server by any
 * more: it signs nothing again, and a later dump of the database does not hold it. A link that
 * knows a key may be told any newer one (an announcement on its way when a newer key is made
 * acknowledges the one it carried), so a retired key is kept while a live link knows it or an
 * older one. Rows another transaction holds are left for the next time.
 */
async function forgetToldKeys(tx: Tx): Promise<void> {
  await tx.query(
    `UPDATE federation_keys SET private_key = NULL WHERE id IN (
       SELECT k.id FROM federation_keys k WHERE k.state = 'retired' AND k.private_key IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM federation_links l WHERE l.our_key_id <= k.id AND l.state = ANY($1))
        FOR UPDATE SKIP LOCKED)`,
    [LIVE],
  );
}

/** The proof that whoever announces `next` to `receiver`, signing with `by`, holds it: `next`'s signature over keyRotationProofText. */
export const possessionProof = (next: StoredKey, receiver: string, by: string): string =>
  sign(null, Buffer.from(keyRotationProofText({ receiver, oldKey: by, newKey: next.keyId })), next.privateKey).toString("base64url");

/**
 * Tells the other side of one link this server's current key (peer-outbox.ts claims the link's
 * row), signed by the key that side knows this server by. That key revoked (its private half is
 * gone), or refused there (the other side already holds the new key: an earlier answer lost, or
 * its owners replaced it by hand), the announcement is signed by the new key itself, which that
 * side accepts only if it holds it already: then it acknowledges and nothing changes there. Once
 * acknowledged, the link knows the current key, unless a newer one was made meanwhile: then it is
 * due again at once, for the newer.
 */
export const keyTeller: Teller = async (tx, net, item) => {
  const { rows } = await tx.query<{ id: string; state: string; peer_url: string; peer_key: Buffer; our_key_id: string | null }>(
    "SELECT id, state, peer_url, peer_key, our_key_id FROM federation_links WHERE id = $1",
    [item.linkId],
  );
  const link = rows[0];
  if (!link || !LIVE.includes(link.state) || link.our_key_id === null) return "moot";
  const current = await federationKey(tx);
  const known = await usableKey(tx, link.our_key_id);
  const announce = (by: StoredKey) =>
    callPeer(net, by, link.peer_url, link.peer_key.toString("base64url"), "peerKeyRotated", {
      publicKey: current.keyId,
      proof: possessionProof(current, link.peer_url, by.keyId),
    });
  if (!known || known.id === current.id) await announce(current);
  else
    try {
      await announce(known);
    } catch (e) {
      // Refused unsigned: the signature was not one of a key it links with. Any other failure is told as it is.
      if (!(e instanceof Refusal && e.msg.id === SM.federationPeerUnverifiable)) throw e;
      await announce(current);
    }
  // Read under a share lock of the announced key's row: a rotation meanwhile (which locks it
  // first) is wholly before this, or after.
  const { rows: state } = await tx.query<{ state: FederationKeyState }>("SELECT state FROM federation_keys WHERE id = $1 FOR SHARE", [current.id]);
  const stillCurrent = state[0]?.state === "current";
  await tx.query("UPDATE federation_links SET our_key_id = $2 WHERE id = $1", [link.id, stillCurrent ? null : current.id]);
  await forgetToldKeys(tx);
  return stillCurrent ? "told" : "again";
};

/** A retired key of this server that still signs (not revoked, its private half kept), or null. */
async function usableKey(db: Queryable, id: string): Promise<StoredKey | null> {
  const { rows } = await db.query<{ id: string; public_key: Buffer; private_key: Buffer }>(
    "SELECT id, public_key, private_key FROM federation_keys WHERE id = $1 AND state <> 'revoked' AND private_key IS NOT NULL",
    [id],
  );
  return rows[0] ? keyOf(rows[0]) : null;
}

/** Tells one link this server's key: the first due, or the given link's whenever due. */
export const tellKey = (net: PeerNet, db: Db, which: Which) => tellOne(net, db, { key: keyTeller }, which);

interface PeerLinkRow {
  id: string;
  public_id: string;
  state: string;
  peer_name: string | null;
  peer_key: Buffer;
}

/**
 * The other server announces its new key, signed by the key this side's link holds for it (the
 * signature's hook checked that): its proof must be the new key's signature over this server's
 * address and both keys. The link holds the new key from then on, the old one is recorded as
 * rotated, and signs nothing here any more. A key this side's owners revoked for the link is
 * never taken back; the key it holds already is acknowledged without anything changed.
 */
export async function peerRotatedKey(db: Db, settings: Settings, signer: Signer, body: { publicKey: string; proof: string }): Promise<void> {
  const next = publicKeyFromId(body.publicKey);
  if (!next) throw proofRefused();
  const text = keyRotationProofText({ receiver: peerBaseUrl(settings.publicUrl), oldKey: signer.keyId, newKey: body.publicKey });
  await inTransaction(db, async (tx) => {
    const { rows } = await tx.query<PeerLinkRow>("SELECT id, public_id, state, peer_name, peer_key FROM federation_links WHERE peer_key = $1 FOR UPDATE", [
      signer.publicKey,
    ]);
    const link = rows[0];
    if (!link || !LIVE.includes(link.state)) throw wrongState();
    // Told again after its answer was lost, or after this side's owners set that key by hand.
    if (next.raw.equals(link.peer_key)) return;
    if (!verify(null, Buffer.from(text), next.key, Buffer.from(body.proof, "base64url"))) throw proofRefused();
    if (await wasRevoked(tx, link.id, next.raw)) throw revokedKey();
    await takeKey(tx, link, next.raw);
    await tx.query(
      `INSERT INTO federation_peer_keys (link_id, public_key, state, replaced_by) VALUES ($1, $2, 'rotated', 'peer')
       ON CONFLICT (link_id, public_key) DO UPDATE SET replaced_at = now(), replaced_by = 'peer'`,
      [link.id, link.peer_key],
    );
    await audit(tx, null, "federation.peer_key_rotated", link.public_id, {
      peer: link.peer_name,
      before: fingerprintOf(link.peer_key),
      after: fingerprintOf(next.raw),
    });
  });
}

async function wasRevoked(tx: Tx, linkId: string, key: Buffer): Promise<boolean> {
  const { rowCount } = await tx.query("SELECT 1 FROM federation_peer_keys WHERE link_id = $1 AND public_key = $2 AND state = 'revoked'", [linkId, key]);
  return rowCount === 1;
}

/** The link holds `key` for the other side from now on; a key another link holds is refused (one link per key). */
async function takeKey(tx: Tx, link: PeerLinkRow, key: Buffer): Promise<void> {
  const { rowCount } = await tx.query("SELECT 1 FROM federation_links WHERE peer_key = $1 AND id <> $2", [key, link.id]);
  if (rowCount) throw new Refusal(ErrorCode.stateConflict, { id: SM.federationAlreadyLinked });
  await tx.query("DELETE FROM federation_peer_keys WHERE link_id = $1 AND public_key = $2", [link.id, key]);
  await tx.query("UPDATE federation_links SET peer_key = $2, updated_at = now() WHERE id = $1", [link.id, key]);
  // The key the servers this one forwards for are told for that association (forwarding.ts).
  await reachChanged(tx);
}

/**
 * This side's owners replace the other side's key, its owners having said theirs leaked: the key
 * its address holds now (its well-known description, over the checked connection), which must be
 * the one whose fingerprint they read aloud and the owner typed (else refused, nothing changed).
 * The link holds it from then on, and every key it held before (the leaked one, and any its holder
 * announced as a rotation meanwhile) is revoked: refused for ever.
 */
export async function replacePeerKey(net: PeerNet, db: Db, memberId: bigint, linkId: string, typed: string): Promise<FederationLink> {
  const fingerprint = typedFingerprint(typed);
  if (!fingerprint) throw invalid({ fingerprint: { id: SM.federationFingerprintTyped } });
  const link = await linkById(db, linkId);
  if (!LIVE.includes(link.state)) throw wrongState();
  const peer = await fetchPeerServer(net, link.peer_url!);
  if (peer.fingerprint !== fingerprint) throw new Refusal(ErrorCode.validation, { id: SM.federationFingerprintNotTheirs });
  const next = Buffer.from(peer.publicKey, "base64url");
  await inTransaction(db, async (tx) => {
    const { rows } = await tx.query<PeerLinkRow>("SELECT id, public_id, state, peer_name, peer_key FROM federation_links WHERE public_id = $1 FOR UPDATE", [
      linkId,
    ]);
    const row = rows[0];
    if (!row || !LIVE.includes(row.state)) throw wrongState();
    if (await wasRevoked(tx, row.id, next)) throw revokedKey();
    const changed = !row.peer_key.equals(next);
    if (changed) await takeKey(tx, row, next);
    // Terms the leaked key's holder told in the other side's name, numbered as it pleased, must not
    // outrank the other side's own, which it tells again after its owners revoked the key.
    if (changed) await tx.query("UPDATE federation_links SET peer_terms_version = 0 WHERE id = $1", [row.id]);
    const { rows: older } = await tx.query<{ public_key: Buffer }>(
      "UPDATE federation_peer_keys SET state = 'revoked', revoked_at = now() WHERE link_id = $1 AND state = 'rotated' RETURNING public_key",
      [row.id],
    );
    if (changed)
      await tx.query(
        `INSERT INTO federation_peer_keys (link_id, public_key, state, replaced_by, revoked_at) VALUES ($1, $2, 'revoked', 'owners', now())
         ON CONFLICT (link_id, public_key) DO UPDATE SET state = 'revoked', replaced_by = 'owners', replaced_at = now(), revoked_at = now()`,
        [row.id, row.peer_key],
      );
    // Nothing revoked and the same key: the same replacement again (a second tap), recorded once.
    if (!changed && older.length === 0) return;
    await audit(tx, memberId, "federation.peer_key_replaced", row.public_id, {
      peer: row.peer_name,
      before: fingerprintOf(row.peer_key),
      after: fingerprint,
      revoked: [...(changed ? [row.peer_key] : []), ...older.map((o) => o.public_key)].map(fingerprintOf),
    });
  });
  return linkView(await linkById(db, linkId));
}
