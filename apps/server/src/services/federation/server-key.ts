import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import type { Queryable } from "../../db/pool";

/** This server's signing key for the federation: Ed25519, one for every instance, kept in the database. */
export interface ServerKey {
  privateKey: KeyObject;
  /** Raw 32 bytes. */
  publicKey: Buffer;
  /** The public key in base64url: the `keyid` of every signature this server makes. */
  keyId: string;
  fingerprint: string;
}

/**
 * The key, made the first time it is asked for. Instances starting together may each make one:
 * the first insert wins and all read back the same row. Read at each use, like the server's other
 * keys (services/platform/server-keys.ts): none lives in a process.
 */
export async function federationKey(db: Queryable): Promise<ServerKey> {
  const stored = await db.query<{ public_key: Buffer; private_key: Buffer }>("SELECT public_key, private_key FROM federation_key");
  if (stored.rows[0]) return keyOf(stored.rows[0].public_key, stored.rows[0].private_key);
  const pair = generateKeyPairSync("ed25519");
  const raw = rawPublicKey(pair.publicKey);
  await db.query("INSERT INTO federation_key (public_key, private_key) VALUES ($1, $2) ON CONFLICT DO NOTHING", [
    raw,
    pair.privateKey.export({ format: "der", type: "pkcs8" }),
  ]);
  return federationKey(db);
}

function keyOf(publicKey: Buffer, privateKey: Buffer): ServerKey {
  return {
    privateKey: createPrivateKey({ key: privateKey, format: "der", type: "pkcs8" }),
    publicKey,
    keyId: publicKey.toString("base64url"),
    fingerprint: fingerprintOf(publicKey),
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
    return { key: createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: keyId }, format: "jwk" }), raw };
  } catch {
    return null;
  }
}

function rawPublicKey(key: KeyObject): Buffer {
  const jwk = key.export({ format: "jwk" });
  return Buffer.from(jwk.x!, "base64url");
}
