import { createECDH } from "node:crypto";
import type { Queryable } from "../../db/pool";
import { serverKeyMadeOnce } from "../platform/server-keys";

/**
 * The server's VAPID key pair (RFC 8292): push services accept a message for a subscription only
 * when signed by the key the subscription was made with. Its P-256 private key is made at the first
 * start and kept in the database (server_keys `vapid`, 32 bytes), never in the code or the
 * environment: every instance signs with the same key, and a restored backup keeps the devices'
 * subscriptions working. The public key is derived from it at each read.
 */

export interface VapidKeys {
  /** The uncompressed P-256 point, base64url: what a browser subscribes with. */
  publicKey: string;
  /** The 32-byte private scalar, base64url, as web-push takes it. */
  privateKey: string;
}

/** A fresh private key, 32 bytes: node returns the scalar without its leading zero bytes. */
function newPrivateKey(): Buffer {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const key = ecdh.getPrivateKey();
  return Buffer.concat([Buffer.alloc(32 - key.length), key]);
}

export async function vapidKeys(db: Queryable): Promise<VapidKeys> {
  const privateKey = await serverKeyMadeOnce(db, "vapid", newPrivateKey);
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(privateKey);
  return { publicKey: ecdh.getPublicKey().toString("base64url"), privateKey: privateKey.toString("base64url") };
}
