import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import type { Queryable } from "../../db/pool";

/** A signing key for the federation: Ed25519, one for every instance, kept in the database. */
export interface ServerKey {
  privateKey: KeyObject;
  /** Raw 32 bytes. */
  publicKey: Buffer;
  /** The public key in base64url: the `keyid` of every signature made with it. */
  keyId: string;
  fingerprint: string;
}

/** One of this server's own keys, with its row's id in `federation_keys`. */
export interface StoredKey extends ServerKey {
  id: string;
}

/**
 * This server's current key, made the first time it is asked for. Instances starting together may
 * each make one: the first insert wins (one current key: `federation_keys_one_current`) and all
 * read back the same row. Read at each use, like the server's other keys
 * (services/platform/server-keys.ts): none lives in a process, so a new key (key-rotation.ts) is
 * every instance's at once.
 */
export async function federationKey(db: Queryable): Promise<StoredKey> {
  const stored = await db.query<{ id: string; public_key: Buffer; private_key: Buffer }>(
    "SELECT id, public_key, private_key FROM federation_keys WHERE state = 'current'",
  );
  if (stored.rows[0]) return keyOf(stored.rows[0]);
  const pair = newKeyPair();
  await db.query("INSERT INTO federation_keys (public_key, private_key, state) VALUES ($1, $2, 'current') ON CONFLICT DO NOTHING", [
    pair.publicKey,
    pair.privateKey,
  ]);
  return federationKey(db);
}

/**
 * The key this server signs with to the linked server that holds `peerKey` (its requests, and
 * its answers to that server's requests): the key that server knows this one by, while it has
 * not acknowledged the current one and that key was retired, not revoked; else the current key.
 * `peerKey` may also be a key that link held before (the answer to the very announcement that
 * replaced it).
 */
export async function signingKeyFor(db: Queryable, peerKey: Buffer | null): Promise<StoredKey> {
  if (peerKey) {
    // The retired key that link knows this server by, else the current key: one query, for every peer call and answer.
    const { rows } = await db.query<{ id: string; public_key: Buffer; private_key: Buffer }>({
      name: "federation-signing-key",
      text: signingKeySql("$1"),
      values: [peerKey],
    });
    if (rows[0]) return keyOf(rows[0]);
  }
  return federationKey(db);
}

/**
 * The statement that finds the key `signingKeyFor` signs with, for the peer key in parameter
 * `param`: its id, public and private key, or no row when this server has no key yet.
 */
export const signingKeySql = (
  param: string,
) => `(SELECT 0 AS rank, k.id, k.public_key, k.private_key FROM federation_links l JOIN federation_keys k ON k.id = l.our_key_id
     WHERE (l.peer_key = ${param} OR l.id IN (SELECT p.link_id FROM federation_peer_keys p WHERE p.public_key = ${param}))
       AND k.state = 'retired' AND k.private_key IS NOT NULL
     ORDER BY l.peer_key = ${param} DESC LIMIT 1)
   UNION ALL
   (SELECT 1, id, public_key, private_key FROM federation_keys WHERE state = 'current')
   ORDER BY rank LIMIT 1`;

/** A new Ed25519 key pair: its raw public half, and its private half as PKCS#8 DER, as stored. */
export function newKeyPair(): { publicKey: Buffer; privateKey: Buffer } {
  const pair = generateKeyPairSync("ed25519");
  return { publicKey: rawPublicKey(pair.publicKey), privateKey: pair.privateKey.export({ format: "der", type: "pkcs8" }) };
}

/**
 * Key objects made from the stored bytes, by those bytes: a pure function of them, kept so that a
 * message signed or checked does not parse its key again each time (the keys themselves are read
 * from the database at each use, as above; a server has a handful, its own and its peers').
 */
const parsed = new Map<string, KeyObject>();
function parsedOnce(bytes: string, parse: () => KeyObject): KeyObject {
  let key = parsed.get(bytes);
  if (!key) {
    if (parsed.size >= 256) parsed.clear();
    parsed.set(bytes, (key = parse()));
  }
  return key;
}

export function keyOf(row: { id: string; public_key: Buffer; private_key: Buffer }): StoredKey {
  return {
    id: String(row.id),
    privateKey: parsedOnce(`private ${row.private_key.toString("base64")}`, () => createPrivateKey({ key: row.private_key, format: "der", type: "pkcs8" })),
    publicKey: row.public_key,
    keyId: row.public_key.toString("base64url"),
    fingerprint: fingerprintOf(row.public_key),
  };
}

/** What owners compare aloud and an invitation names: the key's SHA-256, its first 32 hex digits (128 bits). */
export const fingerprintOf = (publicKey: Buffer): string => createHash("sha256").update(publicKey).digest("hex").slice(0, 32);

/** A public key from its base64url raw form (a signature's `keyid`), or null when it is not one. */
export function publicKeyFromId(keyId: string): { key: KeyObject; raw: Buffer } | null {
  if (!/^[A-Za-z0-9_-]{43}$/.test(keyId)) return null;
  const raw = Buffer.from(keyId, "base64url");
  if (raw.length !== 32) return null;
  try {
    return { key: parsedOnce(`public ${keyId}`, () => createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: keyId }, format: "jwk" })), raw };
  } catch {
    return null;
  }
}

function rawPublicKey(key: KeyObject): Buffer {
  const jwk = key.export({ format: "jwk" });
  return Buffer.from(jwk.x!, "base64url");
}
